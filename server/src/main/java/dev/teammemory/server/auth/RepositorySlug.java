package dev.teammemory.server.auth;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A GitHub repository, {@code owner/name}, with GitHub's character rules. GitHub names are
 * case-insensitive, so {@link #key()} is what identifies the repository; the spelling is kept for
 * display.
 */
public record RepositorySlug(String owner, String name) {

  /** What a valid slug looks like, for error messages. */
  public static final String RULES =
      "owner/name, owner 1-39 of [A-Za-z0-9-] not starting with '-',"
          + " name 1-100 of [A-Za-z0-9._-] and not '.' or '..'";

  private static final Pattern OWNER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]{0,38}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  public RepositorySlug {
    requireNonNull(owner, "owner is null");
    requireNonNull(name, "name is null");
    if (!isOwner(owner)) {
      throw new IllegalArgumentException("not a GitHub owner: " + owner);
    }
    if (!isName(name)) {
      throw new IllegalArgumentException("not a GitHub repository name: " + name);
    }
  }

  /** The slug {@code value} spells, or empty when it is not {@code owner/name} as GitHub allows. */
  public static Optional<RepositorySlug> parse(String value) {
    if (value == null) {
      return Optional.empty();
    }
    int slash = value.indexOf('/');
    if (slash < 0) {
      return Optional.empty();
    }
    String owner = value.substring(0, slash);
    String name = value.substring(slash + 1);
    return isOwner(owner) && isName(name)
        ? Optional.of(new RepositorySlug(owner, name))
        : Optional.empty();
  }

  static boolean isOwner(String owner) {
    return OWNER.matcher(owner).matches();
  }

  private static boolean isName(String name) {
    return NAME.matcher(name).matches() && !name.equals(".") && !name.equals("..");
  }

  /** The case-insensitive identity of the repository: {@code owner/name} in lower case. */
  public String key() {
    return toString().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return owner + '/' + name;
  }
}
