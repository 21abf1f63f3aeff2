package dev.teammemory.daemon.login;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * GitHub's answer to a device-code request: what the user enters where, and how long and how often
 * to poll. The device code itself is a credential until it is used, so {@link #toString()} leaves
 * it out.
 */
record DeviceCode(
    String deviceCode,
    String userCode,
    String verificationUri,
    Duration expiresIn,
    Duration interval) {

  DeviceCode {
    requireNonNull(deviceCode, "deviceCode is null");
    requireNonNull(userCode, "userCode is null");
    requireNonNull(verificationUri, "verificationUri is null");
    requireNonNull(expiresIn, "expiresIn is null");
    requireNonNull(interval, "interval is null");
    if (expiresIn.isNegative() || expiresIn.isZero()) {
      throw new IllegalArgumentException("expiresIn is not positive: " + expiresIn);
    }
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval is not positive: " + interval);
    }
  }

  @Override
  public String toString() {
    return "DeviceCode[userCode="
        + userCode
        + ", verificationUri="
        + verificationUri
        + ", expiresIn="
        + expiresIn
        + ", interval="
        + interval
        + "]";
  }
}
