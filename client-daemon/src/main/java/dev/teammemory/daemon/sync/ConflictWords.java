package dev.teammemory.daemon.sync;

/** How a conflict reads in {@code tmem status} and {@code tmem sync}: what, whose, how to undo. */
public final class ConflictWords {

  private ConflictWords() {}

  public static String of(SyncState state, SyncState.ConflictRecord conflict) {
    String key = Display.key(conflict.key());
    if (conflict.savedCopy() != null) {
      return key
          + " differed from the server's at the first sync ("
          + conflict.detectedAt()
          + "); the server's version is in the team folder now and your copy is saved at "
          + conflict.savedCopy()
          + "; to keep yours, copy it back (it is then pushed)";
    }
    String who = conflict.theirAuthor() == null ? "a teammate" : conflict.theirAuthor();
    String version =
        conflict.theirVersion() > 0
            ? "version " + conflict.theirVersion()
            : "version " + shortChecksum(conflict.theirChecksum());
    String restore =
        conflict.theirVersion() > 0
            ? "tmem team restore "
                + quoteIfNeeded(key)
                + " --version "
                + conflict.theirVersion()
                + " --repo "
                + state.repo()
            : "tmem team history " + quoteIfNeeded(key) + " --repo " + state.repo();
    return key
        + " changed here and on the server ("
        + conflict.detectedAt()
        + "); your edit replaced "
        + who
        + "'s "
        + version
        + ", which stays in the server's history; to get theirs back: "
        + restore;
  }

  static String shortChecksum(String checksum) {
    return checksum.length() > 19 ? checksum.substring(0, 19) + "…" : checksum;
  }

  private static String quoteIfNeeded(String key) {
    return key.matches("[A-Za-z0-9._/@+-]+") ? key : "'" + key.replace("'", "'\\''") + "'";
  }
}
