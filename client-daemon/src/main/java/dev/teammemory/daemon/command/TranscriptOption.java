package dev.teammemory.daemon.command;

import dev.teammemory.daemon.home.Environment;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --transcript FILE}: the session a command works on. */
public final class TranscriptOption {

  @Option(
      names = "--transcript",
      required = true,
      paramLabel = "FILE",
      description = "The session's JSONL transcript.")
  Path transcript;

  /**
   * The transcript, resolved against the working directory.
   *
   * @throws UserError a usage error when it is not a file
   */
  public Path file(Environment environment) {
    return file(environment, transcript);
  }

  /**
   * A {@code --transcript} option's file, resolved against the working directory.
   *
   * @throws UserError a usage error when it is not a file
   */
  public static Path file(Environment environment, Path transcript) {
    Path file = environment.workingDirectory().resolve(transcript);
    if (!Files.isRegularFile(file)) {
      throw UserError.usage(
          "--transcript " + transcript + " is not a file; give the session's .jsonl transcript");
    }
    return file;
  }
}
