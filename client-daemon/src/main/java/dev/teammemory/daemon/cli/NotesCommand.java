package dev.teammemory.daemon.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.command.EngineCommand;
import dev.teammemory.daemon.command.FormatOption;
import dev.teammemory.daemon.command.OutputFormat;
import dev.teammemory.daemon.command.ProjectDirectoryOption;
import dev.teammemory.daemon.command.TranscriptOption;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.notes.NotesDocument;
import dev.teammemory.daemon.notes.NotesOutcome;
import dev.teammemory.daemon.notes.NotesProgress;
import dev.teammemory.daemon.notes.NotesProgressStore;
import dev.teammemory.daemon.notes.SessionNotes;
import dev.teammemory.daemon.transcript.Tokens;
import dev.teammemory.daemon.transcript.Transcript;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tmem notes update|show}: a session's running notes, kept from its transcript. */
@Command(
    name = "notes",
    description = "Keep and show a session's notes (summary.md), written from its transcript.",
    mixinStandardHelpOptions = true,
    subcommands = {NotesCommand.UpdateCommand.class, NotesCommand.ShowCommand.class})
public final class NotesCommand {

  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** {@code tmem notes update}. */
  @Command(
      name = "update",
      description = {
        "Update a session's notes from its transcript when they are due: first at 10,000 tokens of"
            + " conversation, then after 5,000 more tokens and either 3 tool calls or a turn that"
            + " ended without one. --force updates now.",
        "With ANTHROPIC_API_KEY set a model edits the notes; without it they are written from the"
            + " transcript."
      },
      mixinStandardHelpOptions = true)
  public static final class UpdateCommand extends EngineCommand {

    @Mixin TranscriptOption transcript;

    @Option(
        names = "--notes",
        paramLabel = "FILE",
        description =
            "The notes file (default: the session's <config home>/projects/<cwd>/<session>/session-memory/summary.md).")
    Path notes;

    @Option(names = "--force", description = "Update now, whatever the thresholds say.")
    boolean force;

    @Mixin FormatOption format;

    public UpdateCommand() {
      this(Environment.system(), Clock.systemUTC());
    }

    public UpdateCommand(Environment environment) {
      this(environment, Clock.systemUTC());
    }

    public UpdateCommand(Environment environment, Clock clock) {
      super(environment, clock);
    }

    @Override
    public Integer call() throws IOException {
      Path transcriptFile = transcript.file(environment);
      ClaudeLayout layout = ClaudeLayout.of(environment);
      Path notesFile =
          notes != null
              ? environment.workingDirectory().resolve(notes)
              : SessionNotes.notesFor(layout, transcriptFile, Transcript.read(transcriptFile));
      LanguageModel model = model();
      NotesOutcome outcome =
          new SessionNotes(layout, model, clock).update(transcriptFile, notesFile, force);
      PrintWriter out = out();
      if (format.value() == OutputFormat.json) {
        out.println(JSON.writeValueAsString(outcome));
      }
      return switch (outcome) {
        case NotesOutcome.Updated updated -> {
          if (format.value() == OutputFormat.text) {
            out.println(
                "updated "
                    + updated.notes()
                    + " (~"
                    + updated.tokens()
                    + " tokens of conversation; written "
                    + (updated.writer().startsWith("offline") ? "" : "by ")
                    + updated.writer()
                    + ")");
          }
          yield 0;
        }
        case NotesOutcome.NotDue notDue -> {
          if (format.value() == OutputFormat.text) {
            out.println("not due: " + notDue.reason() + " (--force updates now)");
          }
          yield 0;
        }
        case NotesOutcome.Busy busy ->
            throw UserError.problem(
                "another update of "
                    + busy.notes()
                    + " is running; try again when it has finished");
        case NotesOutcome.Failed failed ->
            throw UserError.problem("could not update " + failed.notes() + ": " + failed.reason());
      };
    }
  }

  /** {@code tmem notes show}. */
  @Command(
      name = "show",
      description = {
        "Print a session's notes. Without options: the notes of the most recent session in the"
            + " current directory."
      },
      mixinStandardHelpOptions = true)
  public static final class ShowCommand extends EngineCommand {

    @ArgGroup(exclusive = true)
    Which which;

    static final class Which {
      @Option(names = "--notes", paramLabel = "FILE", description = "The notes file.")
      Path notes;

      @Option(
          names = "--transcript",
          paramLabel = "FILE",
          description = "The session's transcript; its notes are shown.")
      Path transcript;

      @Option(
          names = "--session",
          paramLabel = "ID",
          description = "A session of the project directory.")
      String session;
    }

    @Mixin ProjectDirectoryOption cwd;
    @Mixin FormatOption format;

    public ShowCommand() {
      this(Environment.system());
    }

    public ShowCommand(Environment environment) {
      super(environment, Clock.systemUTC());
    }

    @Override
    public Integer call() throws IOException {
      ClaudeLayout layout = ClaudeLayout.of(environment);
      Path notesFile = notesFile(layout, cwd.unchecked(environment));
      Optional<String> read = SessionNotes.read(notesFile);
      if (read.isEmpty()) {
        throw UserError.problem(
            "there are no notes at "
                + notesFile
                + " yet: they start when the conversation reaches 10,000 tokens; run tmem notes update"
                + " --transcript FILE --force to write them now");
      }
      String content = read.get();
      PrintWriter out = out();
      switch (format.value()) {
        case text -> {
          // The notes end with their own newline; print() is not flushed by the CLI's writer.
          out.print(content.endsWith("\n") ? content : content + "\n");
          out.flush();
        }
        case json -> {
          NotesProgress progress = new NotesProgressStore(layout.stateHome()).load(notesFile);
          ObjectNode json = JSON.createObjectNode();
          json.put("notes", notesFile.toString());
          json.put("tokens", Tokens.rough(content));
          ArrayNode sections = json.putArray("sections");
          NotesDocument.parse(content)
              .sections()
              .forEach(
                  section -> {
                    ObjectNode node = sections.addObject();
                    node.put("title", section.title());
                    node.put("tokens", Tokens.rough(section.content()));
                    node.put("content", section.content());
                  });
          ObjectNode state = json.putObject("progress");
          state.put("initialized", progress.initialized());
          state.put("tokensAtLastUpdate", progress.tokensAtLastUpdate());
          state.put("lastSummarizedMessage", progress.lastSummarizedMessage().orElse(null));
          state.put("lastUpdate", progress.lastUpdate().map(Object::toString).orElse(null));
          json.put("content", content);
          out.println(JSON.writeValueAsString(json));
        }
      }
      return 0;
    }

    private Path notesFile(ClaudeLayout layout, Path project) throws IOException {
      if (which != null && which.notes != null) {
        return environment.workingDirectory().resolve(which.notes);
      }
      if (which != null && which.transcript != null) {
        Path transcriptFile = TranscriptOption.file(environment, which.transcript);
        return SessionNotes.notesFor(layout, transcriptFile, Transcript.read(transcriptFile));
      }
      if (which != null && which.session != null) {
        try {
          return layout.sessionNotes(project, which.session);
        } catch (IllegalArgumentException invalid) {
          throw UserError.usage("--session: " + invalid.getMessage());
        }
      }
      Path projectDirectory = layout.projectDirectory(project);
      Optional<Path> latest;
      try (Stream<Path> files = Files.list(projectDirectory)) {
        latest =
            files
                .filter(
                    file ->
                        file.getFileName().toString().endsWith(".jsonl")
                            && Files.isRegularFile(file))
                .max(Comparator.comparing(NotesCommand::modified));
      } catch (NoSuchFileException noSessions) {
        latest = Optional.empty();
      }
      if (latest.isEmpty()) {
        throw UserError.problem(
            "no sessions recorded for "
                + project
                + " under "
                + projectDirectory
                + "; pass --session ID, --transcript FILE or --notes FILE");
      }
      return ClaudeLayout.sessionNotesBeside(latest.get());
    }
  }

  private static FileTime modified(Path file) {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException unreadable) {
      return FileTime.fromMillis(0);
    }
  }
}
