package dev.teammemory.daemon.sync;

import java.util.regex.Pattern;

/** A GitHub repository slug, {@code owner/name}, with GitHub's allowed characters. */
public final class RepoSlug {

  private static final Pattern SLUG =
      Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}");

  private RepoSlug() {}

  public static boolean isValid(String value) {
    return value != null
        && SLUG.matcher(value).matches()
        && !value.endsWith("/.")
        && !value.endsWith("/..");
  }
}
