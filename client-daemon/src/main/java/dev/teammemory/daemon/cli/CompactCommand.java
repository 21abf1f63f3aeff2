package dev.teammemory.daemon.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.teammemory.daemon.command.EngineCommand;
import dev.teammemory.daemon.command.OutputFormat;
import dev.teammemory.daemon.command.TranscriptOption;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.compact.Compaction;
import dev.teammemory.daemon.compact.CompactionLimits;
import dev.teammemory.daemon.compact.CompactionOutcome;
import dev.teammemory.daemon.compact.CompactionRequest;
import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.LanguageModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tmem compact}: a session's conversation, compacted, in the transcript's JSONL shapes. */
@Command(
    name = "compact",
    description = {
      "Compact a session's conversation and print the result in the transcript's own JSONL shapes:"
          + " a compact boundary, the summary message, the kept messages, files read again, the"
          + " session's title and tags.",
      "Level 1 uses the session notes (no model call); level 2 a nine-section summary (by the model"
          + " with ANTHROPIC_API_KEY, else offline from the notes and the transcript); level 3 drops"
          + " the oldest rounds when the model says the request is too long.",
      "Text output is the JSONL (redirect it, or use --output); a report goes to stderr."
    },
    mixinStandardHelpOptions = true)
public final class CompactCommand extends EngineCommand {

  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Mixin TranscriptOption transcript;

  @Option(
      names = "--notes",
      paramLabel = "FILE",
      description = "The session notes (default: the session's session-memory/summary.md).")
  Path notes;

  @Option(
      names = "--last-summarized",
      paramLabel = "UUID",
      description =
          "The last message the notes cover (default: what the daemon recorded when it last updated the notes).")
  String lastSummarized;

  @Option(
      names = "--context-window",
      paramLabel = "N",
      defaultValue = "200000",
      description = "The model's context window in tokens (default: ${DEFAULT-VALUE}).")
  long contextWindow;

  @Option(
      names = "--max-output",
      paramLabel = "N",
      defaultValue = "20000",
      description = "The model's maximum output in tokens (default: ${DEFAULT-VALUE}).")
  long maxOutput;

  @Option(
      names = "--instructions",
      paramLabel = "TEXT",
      description =
          "What the summary should stress. Needs a full summary (level 2), as in Claude Code: the"
              + " session notes then go to the summarizer as instructions too.")
  String instructions;

  @Option(
      names = "--auto",
      description =
          "Automatic compaction: only when the conversation is over the threshold, and not after 3 failures in a row.")
  boolean automatic;

  @Option(
      names = "--output",
      paramLabel = "FILE",
      description = "Write the compacted JSONL to FILE instead of stdout.")
  Path output;

  @Option(
      names = "--format",
      defaultValue = "text",
      description = "text (JSONL) or json (default: ${DEFAULT-VALUE}).")
  OutputFormat format;

  public CompactCommand() {
    this(Environment.system(), Clock.systemUTC());
  }

  public CompactCommand(Environment environment, Clock clock) {
    super(environment, clock);
  }

  @Override
  public Integer call() throws IOException {
    Path transcriptFile = transcript.file(environment);
    Optional<Path> target = outputFile();
    CompactionLimits limits;
    try {
      limits = new CompactionLimits(contextWindow, maxOutput);
    } catch (IllegalArgumentException invalid) {
      throw UserError.usage("--context-window/--max-output: " + invalid.getMessage());
    }
    LanguageModel model = model();
    CompactionRequest request =
        new CompactionRequest(
            transcriptFile,
            Optional.ofNullable(notes).map(environment.workingDirectory()::resolve),
            Optional.ofNullable(lastSummarized).filter(marker -> !marker.isBlank()),
            limits,
            automatic,
            Optional.ofNullable(instructions));
    CompactionOutcome outcome =
        new Compaction(ClaudeLayout.of(environment), model, clock).compact(request);
    PrintWriter out = out();
    PrintWriter err = err();
    if (outcome instanceof CompactionOutcome.Compacted compacted && target.isPresent()) {
      AtomicFiles.write(target.get(), String.join("\n", compacted.lines()) + "\n");
    }
    if (format == OutputFormat.json) {
      out.println(JSON.writeValueAsString(outcome));
    }
    return switch (outcome) {
      case CompactionOutcome.Compacted compacted -> {
        if (format == OutputFormat.text) {
          if (output == null) {
            compacted.lines().forEach(out::println);
          }
          compacted.fallbacks().forEach(reason -> err.println("tmem: fell back: " + reason));
          err.println("tmem: " + report(compacted));
        }
        yield 0;
      }
      case CompactionOutcome.NotNeeded notNeeded -> {
        if (format == OutputFormat.text) {
          err.println(
              "tmem: not needed: the conversation is ~"
                  + notNeeded.tokens()
                  + " tokens, below the threshold of "
                  + notNeeded.threshold()
                  + " (run without --auto to compact anyway)");
        }
        yield 0;
      }
      case CompactionOutcome.CircuitOpen open ->
          throw UserError.problem(
              "automatic compaction failed "
                  + open.consecutiveFailures()
                  + " times in a row for this session and is paused; run tmem compact without --auto"
                  + " to compact by hand, which resets it");
      case CompactionOutcome.Failed failed -> {
        if (format == OutputFormat.text) {
          failed.fallbacks().forEach(reason -> err.println("tmem: fell back: " + reason));
        }
        throw UserError.problem("could not compact " + transcriptFile + ": " + failed.reason());
      }
    };
  }

  /** {@code --output}, checked before any work: a folder, or a file in no folder, is refused. */
  private Optional<Path> outputFile() {
    if (output == null) {
      return Optional.empty();
    }
    Path target = environment.workingDirectory().resolve(output);
    if (Files.isDirectory(target)) {
      throw UserError.usage(
          "--output " + output + " is a folder; give the file to write the conversation to");
    }
    if (Files.exists(target) && !Files.isRegularFile(target)) {
      throw UserError.usage(
          "--output "
              + output
              + " is not a regular file; give the file to write the conversation to");
    }
    if (target.getParent() != null && !Files.isDirectory(target.getParent())) {
      throw UserError.usage(
          "--output " + output + ": the folder " + target.getParent() + " does not exist");
    }
    return Optional.of(target);
  }

  static String report(CompactionOutcome.Compacted compacted) {
    return "compacted by "
        + compacted.writer()
        + " (level "
        + compacted.level().number()
        + "): ~"
        + compacted.preTokens()
        + " → ~"
        + compacted.postTokens()
        + " tokens; "
        + compacted.keptMessages()
        + " messages kept verbatim, "
        + compacted.restoredFiles().size()
        + " files read again"
        + (compacted.promptTooLongRetries() > 0
            ? ", " + compacted.promptTooLongRetries() + " retries after dropping the oldest rounds"
            : "");
  }
}
