package dev.teammemory.daemon.secrets;

import java.util.Random;

/** Synthetic tokens made at test time, so the repository carries no token-shaped string. */
public final class SecretTokens {

  private static final String BASE62 =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  private final Random random;

  public SecretTokens(long seed) {
    this.random = new Random(seed);
  }

  public String githubPat() {
    return "ghp_" + characters(BASE62, 36);
  }

  public String awsAccessKeyId() {
    return "AKIA" + characters("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16);
  }

  private String characters(String alphabet, int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }
}
