package dev.teammemory.daemon.cli;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.teammemory.daemon.command.OutputFormat;
import dev.teammemory.daemon.command.TranscriptOption;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.compact.Compaction;
import dev.teammemory.daemon.compact.CompactionLimits;
import dev.teammemory.daemon.compact.CompactionOutcome;
import dev.teammemory.daemon.compact.CompactionRequest;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.LanguageModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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
public final class CompactCommand implements Callable<Integer> {

  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Environment environment;
  private final Clock clock;

  @Spec CommandSpec spec;
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
    this.environment = requireNonNull(environment, "environment is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  @Override
  public Integer call() throws IOException {
    Path transcriptFile = transcript.file(environment);
    CompactionLimits limits;
    try {
      limits = new CompactionLimits(contextWindow, maxOutput);
    } catch (IllegalArgumentException invalid) {
      throw UserError.usage("--context-window/--max-output: " + invalid.getMessage());
    }
    LanguageModel model;
    try {
      model = LanguageModel.fromEnvironment(environment.variables());
    } catch (IllegalArgumentException misconfigured) {
      throw UserError.usage(misconfigured.getMessage() + "; fix the variable or unset it");
    }
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
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (outcome instanceof CompactionOutcome.Compacted compacted && output != null) {
      Path target = environment.workingDirectory().resolve(output);
      Files.writeString(
          target, String.join("\n", compacted.lines()) + "\n", StandardCharsets.UTF_8);
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
