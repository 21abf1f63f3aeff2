package dev.teammemory.daemon.sync;

/** Why a file is not synced; each says it in words for {@code tmem status}. */
public enum SkipReason {
  SECRET("contains a secret"),
  TOO_LARGE("too large"),
  OVER_CAP("over the server's entry cap"),
  SYMLINK("a symbolic link (links are never synced)"),
  NOT_A_FILE("not a regular file"),
  INVALID_NAME("its name is not a valid key"),
  REJECTED("rejected by the server"),
  UNREADABLE("could not be read"),
  NOT_UTF8("not UTF-8: save it as UTF-8");

  private final String words;

  SkipReason(String words) {
    this.words = words;
  }

  public String words() {
    return words;
  }
}
