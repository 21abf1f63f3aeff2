package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.model.AgentTool;
import dev.teammemory.daemon.model.InputSchema;
import dev.teammemory.daemon.model.ToolDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The agent's {@code Bash} tool, for the read-only commands the permission gate lets through: runs
 * the line with {@code /bin/sh -c} in the project directory, with no input, a time limit, and the
 * output cut short.
 */
final class BashTool implements AgentTool {

  private static final int MAX_OUTPUT = 30_000;
  private static final long TIME_LIMIT_SECONDS = 30;

  private final Path workingDirectory;

  BashTool(Path workingDirectory) {
    this.workingDirectory = requireNonNull(workingDirectory, "workingDirectory is null");
  }

  @Override
  public ToolDefinition definition() {
    var schema =
        InputSchema.object()
            .string("command", "The command line to run")
            .required("command")
            .build();
    return new ToolDefinition(
        MemoryWriteGate.BASH,
        "Runs a read-only shell command (ls, find, grep, cat, stat, wc, head, tail and similar).",
        schema);
  }

  @Override
  public Result execute(JsonNode input) {
    String command = input.path("command").asText();
    Path output;
    try {
      output = Files.createTempFile("tmem-bash", ".out");
    } catch (IOException cannotCreate) {
      return Result.error("cannot capture the output: " + FailureWords.describe(cannotCreate));
    }
    try {
      // Output goes to a file so that a command that never stops writing cannot block the wait.
      Process process =
          new ProcessBuilder("/bin/sh", "-c", command)
              .directory(workingDirectory.toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .start();
      if (!process.waitFor(TIME_LIMIT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return Result.error(
            "the command took longer than " + TIME_LIMIT_SECONDS + " s and was stopped");
      }
      String text;
      try (InputStream in = Files.newInputStream(output)) {
        text = new String(in.readNBytes(MAX_OUTPUT), StandardCharsets.UTF_8);
      }
      return process.exitValue() == 0
          ? Result.ok(text)
          : Result.error("exit code " + process.exitValue() + "\n" + text);
    } catch (IOException failed) {
      return Result.error("the command could not run: " + FailureWords.describe(failed));
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return Result.error("interrupted");
    } finally {
      try {
        Files.deleteIfExists(output);
      } catch (IOException ignored) {
        // A leftover temporary file in the system's temporary folder is harmless.
      }
    }
  }
}
