package dev.teammemory.daemon.login;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.command.UserError;
import dev.teammemory.protocol.AuthConfig;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * GitHub's OAuth device flow (RFC 8628 as GitHub implements it): ask for a code, tell the user
 * where to enter it, then poll the token endpoint no more often than GitHub allows until the user
 * has authorised, denied, or the code has expired.
 */
final class DeviceFlow {

  /** GitHub adds 5 seconds to the interval at every {@code slow_down}. */
  static final Duration SLOW_DOWN_STEP = Duration.ofSeconds(5);

  /** Network failures in a row before the wait is given up. */
  static final int MAX_FAILURES = 3;

  private final GitHubOAuth oauth;
  private final Sleeper sleeper;
  private final Clock clock;

  DeviceFlow(GitHubOAuth oauth, Sleeper sleeper, Clock clock) {
    this.oauth = requireNonNull(oauth, "oauth is null");
    this.sleeper = requireNonNull(sleeper, "sleeper is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * Runs the flow and returns the token; prints the code and where to enter it to {@code
   * instructions}. Fails with a {@link UserError} that says what to do when GitHub refuses, the
   * user denies, or the code expires.
   */
  TokenGrant authorise(AuthConfig.GitHub github, PrintWriter instructions) {
    DeviceCode code =
        switch (oauth.requestCode(github.deviceCodeUrl(), github.clientId(), github.scopes())) {
          case GitHubOAuth.CodeAnswer.Issued issued -> issued.code();
          case GitHubOAuth.CodeAnswer.Failed failed ->
              throw UserError.problem(
                  "device_flow_disabled".equals(failed.error())
                      ? disabled(github)
                      : "could not start the GitHub login: " + failed.reason());
        };
    instructions.println("First copy your one-time code: " + code.userCode());
    instructions.println(
        "Then open "
            + code.verificationUri()
            + " and enter it. Waiting for authorisation (expires in "
            + minutes(code.expiresIn())
            + " min)…");
    instructions.flush();
    Instant deadline = clock.instant().plus(code.expiresIn());
    Duration interval = code.interval();
    int failures = 0;
    while (true) {
      pause(interval);
      if (!clock.instant().isBefore(deadline)) {
        throw expired(code);
      }
      GitHubOAuth.TokenAnswer answer =
          oauth.pollToken(github.tokenUrl(), github.clientId(), code.deviceCode());
      switch (answer) {
        case GitHubOAuth.TokenAnswer.Granted granted -> {
          return granted.grant();
        }
        case GitHubOAuth.TokenAnswer.Pending pending -> failures = 0;
        case GitHubOAuth.TokenAnswer.SlowDown slowDown -> {
          failures = 0;
          Duration current = interval;
          interval =
              slowDown
                  .interval()
                  .filter(requested -> requested.compareTo(current) > 0)
                  .orElse(current.plus(SLOW_DOWN_STEP));
        }
        case GitHubOAuth.TokenAnswer.Refused refused -> throw refusal(refused, code, github);
        case GitHubOAuth.TokenAnswer.Unreachable unreachable -> {
          failures++;
          if (failures >= MAX_FAILURES) {
            throw UserError.problem(
                "lost contact with GitHub while waiting for the authorisation: "
                    + unreachable.reason()
                    + "; check your network and run `tmem login` again");
          }
        }
      }
    }
  }

  private void pause(Duration interval) {
    try {
      sleeper.sleep(interval);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw UserError.problem("the login was interrupted; nothing was stored");
    }
  }

  private static UserError refusal(
      GitHubOAuth.TokenAnswer.Refused refused, DeviceCode code, AuthConfig.GitHub github) {
    return switch (refused.error()) {
      case "expired_token" -> expired(code);
      case "access_denied" ->
          UserError.problem(
              "the authorisation was denied on GitHub; nothing was stored."
                  + " Run `tmem login` again and choose Authorize to log in");
      case "device_flow_disabled" -> UserError.problem(disabled(github));
      case "incorrect_client_credentials" ->
          UserError.problem(
              "GitHub does not know the server's OAuth client id "
                  + github.clientId()
                  + " (incorrect_client_credentials): ask your admin to check the server's GitHub"
                  + " login settings");
      case "incorrect_device_code" ->
          UserError.problem(
              "GitHub does not accept the device code (incorrect_device_code); nothing was"
                  + " stored. Run `tmem login` again");
      default ->
          UserError.problem(
              "GitHub refused the login ("
                  + refused.error()
                  + (refused.description().isEmpty() ? "" : ": " + refused.description())
                  + "); nothing was stored. Run `tmem login` again");
    };
  }

  private static UserError expired(DeviceCode code) {
    return UserError.problem(
        "the one-time code "
            + code.userCode()
            + " expired before it was entered; nothing was stored. Run `tmem login` again and"
            + " enter the new code within "
            + minutes(code.expiresIn())
            + " min");
  }

  private static String disabled(AuthConfig.GitHub github) {
    return "the device flow is not enabled for the server's OAuth app (client id "
        + github.clientId()
        + "): ask your admin to enable \"Device Flow\" in the app's settings on GitHub";
  }

  private static long minutes(Duration duration) {
    return (duration.toSeconds() + 59) / 60;
  }
}
