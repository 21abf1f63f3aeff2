package dev.teammemory.daemon.transcript;

import java.nio.file.Path;

/**
 * The hand-made transcripts in {@code src/test/resources/transcripts}, for other packages' tests.
 */
public final class TranscriptTestResources {

  private TranscriptTestResources() {}

  public static Path file(String name) {
    return TranscriptTest.resource(name);
  }
}
