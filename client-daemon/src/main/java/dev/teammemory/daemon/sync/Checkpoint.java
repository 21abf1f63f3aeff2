package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

/**
 * Saves the sync state during a push every {@value #EVERY_FILES} files the server acknowledged,
 * rather than after each (every save is an fsync; a first push of thousands of files would spend
 * its time there). The engine saves once more when the push ends. A crash in between loses at most
 * the acknowledgements since the last save; the next start sends those files again with the
 * preconditions it knew, which the server answers as already done (a {@code 409} or {@code 412}
 * whose current content is ours), so nothing is written twice.
 */
final class Checkpoint {

  static final int EVERY_FILES = 32;

  private final Runnable save;
  private int unsaved;

  Checkpoint(Runnable save) {
    this.save = requireNonNull(save, "save is null");
  }

  /** The server acknowledged {@code files} more files (or deletes). */
  void acknowledged(int files) {
    unsaved += files;
    if (unsaved >= EVERY_FILES) {
      save.run();
      unsaved = 0;
    }
  }
}
