package dev.teammemory.daemon.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.teammemory.daemon.command.EngineCommand;
import dev.teammemory.daemon.command.FormatOption;
import dev.teammemory.daemon.command.ProjectDirectoryOption;
import dev.teammemory.daemon.command.TranscriptOption;
import dev.teammemory.daemon.extract.Extraction;
import dev.teammemory.daemon.extract.ExtractionOutcome;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.transcript.Transcript;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tmem extract}: saves what the latest turn of a session is worth remembering. */
@Command(
    name = "extract",
    description = {
      "Extract durable memories from the messages of a session since the last extraction, once the"
          + " agent's turn has finished (the Stop hook runs this after every turn).",
      "With ANTHROPIC_API_KEY a model decides, allowed to read anything, run read-only shell commands"
          + " and write only memory files; without it, explicit \"remember …\" requests, corrections and"
          + " stated preferences are saved as feedback memories.",
      "Nothing is done when the agent saved memories itself in that turn; requests made while an"
          + " extraction runs are coalesced into one more run."
    },
    mixinStandardHelpOptions = true)
public final class ExtractCommand extends EngineCommand {

  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  @Mixin TranscriptOption transcript;

  @Option(
      names = "--cwd",
      paramLabel = "DIR",
      description = "The project directory (default: the one the transcript records).")
  Path cwd;

  @Mixin FormatOption format;

  public ExtractCommand() {
    this(Environment.system(), Clock.systemDefaultZone());
  }

  public ExtractCommand(Environment environment, Clock clock) {
    super(environment, clock);
  }

  @Override
  public Integer call() throws IOException {
    Path transcriptFile = transcript.file(environment);
    Path project = projectDirectory(environment, cwd, transcriptFile);
    Environment inProject = environment.withWorkingDirectory(project);
    LanguageModel model = model();
    ExtractionOutcome outcome = Extraction.afterTurn(inProject, model, clock, transcriptFile);
    PrintWriter out = out();
    switch (format.value()) {
      case json -> out.println(JSON.writeValueAsString(outcome));
      case text -> {
        out.print(text(outcome));
        out.flush();
      }
    }
    return outcome instanceof ExtractionOutcome.Failed ? 1 : 0;
  }

  /**
   * {@code --cwd}, else the directory the transcript records when it exists, else the current one.
   */
  static Path projectDirectory(Environment environment, Path cwd, Path transcriptFile)
      throws IOException {
    Optional<Path> given = ProjectDirectoryOption.directory(environment, cwd);
    if (given.isPresent()) {
      return given.get();
    }
    Optional<Path> recorded =
        Transcript.read(transcriptFile)
            .cwd()
            .map(Path::of)
            .filter(Path::isAbsolute)
            .filter(Files::isDirectory);
    return recorded.orElse(environment.workingDirectory());
  }

  static String text(ExtractionOutcome outcome) {
    StringBuilder text = new StringBuilder();
    switch (outcome) {
      case ExtractionOutcome.Extracted extracted -> {
        text.append("extracted by ")
            .append(extracted.writer())
            .append(" from ")
            .append(extracted.messages())
            .append(" new messages")
            .append(
                extracted.trailingRuns() > 0
                    ? " (" + extracted.trailingRuns() + " coalesced runs)"
                    : "")
            .append(extracted.changes().isEmpty() ? ": nothing worth saving" : ":")
            .append('\n');
        extracted
            .changes()
            .forEach(
                change ->
                    text.append("  ")
                        .append(change.change())
                        .append(' ')
                        .append(change.file())
                        .append('\n'));
        extracted
            .refusals()
            .forEach(
                refusal ->
                    text.append("  not saved (")
                        .append(refusal.reason())
                        .append(")")
                        .append(refusal.excerpt().isEmpty() ? "" : ": " + refusal.excerpt())
                        .append('\n'));
      }
      case ExtractionOutcome.Skipped skipped ->
          text.append("skipped: ").append(skipped.reason()).append('\n');
      case ExtractionOutcome.Coalesced coalesced ->
          text.append(
              "coalesced: an extraction is running and will make one more run for this session\n");
      case ExtractionOutcome.Failed failed ->
          text.append("failed: ").append(failed.reason()).append('\n');
    }
    return text.toString();
  }
}
