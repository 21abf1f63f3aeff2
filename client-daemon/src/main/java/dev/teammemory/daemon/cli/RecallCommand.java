package dev.teammemory.daemon.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.teammemory.daemon.command.EngineCommand;
import dev.teammemory.daemon.command.FormatOption;
import dev.teammemory.daemon.command.OutputFormat;
import dev.teammemory.daemon.command.ProjectDirectoryOption;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.recall.RecallReport;
import dev.teammemory.daemon.recall.SessionRecall;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tmem recall QUERY}: the memories relevant to a query, as an agent would be given them. */
@Command(
    name = "recall",
    description = {
      "Print the memories relevant to QUERY, as an agent is given them: at most 5 topic files not"
          + " surfaced earlier in the session, each cut at 200 lines or 4,096 bytes, with a"
          + " freshness note when older than a day; at most 60 KiB per session.",
      "With ANTHROPIC_API_KEY set a model picks the files; without it they are ranked offline."
    },
    mixinStandardHelpOptions = true)
public final class RecallCommand extends EngineCommand {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Parameters(
      arity = "1..*",
      paramLabel = "QUERY",
      description = "What the agent is about to work on.")
  List<String> words;

  @Option(
      names = "--session",
      paramLabel = "ID",
      description =
          "Session id: memories surfaced before in this session are skipped and count against its budget (default: none, nothing remembered).")
  String session;

  @Option(
      names = "--tools",
      split = ",",
      paramLabel = "TOOL",
      description =
          "Tools the agent is using (comma-separated); their usage notes are skipped, warnings kept.")
  List<String> tools = new ArrayList<>();

  @Mixin ProjectDirectoryOption cwd;
  @Mixin FormatOption format;

  public RecallCommand() {
    this(Environment.system(), Clock.systemUTC());
  }

  public RecallCommand(Environment environment) {
    this(environment, Clock.systemUTC());
  }

  public RecallCommand(Environment environment, Clock clock) {
    super(environment, clock);
  }

  @Override
  public Integer call() throws IOException {
    String query = String.join(" ", words).strip();
    if (query.isEmpty()) {
      throw UserError.usage("QUERY is empty; say what the agent is about to work on");
    }
    if (session != null) {
      try {
        ClaudeLayout.checkSessionId(session);
      } catch (IllegalArgumentException invalid) {
        throw UserError.usage("--session: " + invalid.getMessage());
      }
    }
    Environment project = cwd.inProject(environment);
    LanguageModel model = model();
    RecallReport report =
        new SessionRecall(ClaudeLayout.of(environment), model, clock)
            .recall(project, query, Optional.ofNullable(session), tools);
    PrintWriter out = out();
    PrintWriter err = err();
    report.warnings().forEach(warning -> err.println("tmem: " + warning));
    if (report.memoryOff().isPresent()) {
      err.println("tmem: auto memory is off (" + report.memoryOff().get() + "); nothing to recall");
      if (format.value() == OutputFormat.json) {
        out.println(JSON.writeValueAsString(report));
      }
      return 0;
    }
    switch (format.value()) {
      case json -> out.println(JSON.writeValueAsString(report));
      case text -> {
        for (int i = 0; i < report.memories().size(); i++) {
          if (i > 0) {
            out.println();
          }
          out.println(report.memories().get(i).render());
        }
        err.println(
            "tmem: "
                + report.memories().size()
                + " of "
                + report.candidates()
                + " memories, picked by "
                + report.rankedBy()
                + (report.budgetExhausted() ? "; the session's 60 KiB budget is used up" : ""));
      }
    }
    return 0;
  }
}
