package dev.teammemory.daemon.recall;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.cli.UserError;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.Environment;
import dev.teammemory.daemon.memory.FormatOption;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.memory.OutputFormat;
import dev.teammemory.daemon.memory.ProjectDirectoryOption;
import dev.teammemory.daemon.model.LanguageModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

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
public final class RecallCommand implements Callable<Integer> {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Environment environment;
  private final Clock clock;

  @Spec CommandSpec spec;

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
    this.environment = requireNonNull(environment, "environment is null");
    this.clock = requireNonNull(clock, "clock is null");
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
    MemoryLocation location = MemoryLocation.resolve(project);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    location.warnings().forEach(warning -> err.println("tmem: " + warning));
    if (!location.enabled()) {
      err.println(
          "tmem: auto memory is off ("
              + location.disabledBy().orElseThrow()
              + "); nothing to recall");
      if (format.value() == OutputFormat.json) {
        out.println(
            JSON.writeValueAsString(
                json(
                    query,
                    new RecallResult(List.of(), "nothing (auto memory is off)", 0, 0, false))));
      }
      return 0;
    }
    LanguageModel model;
    try {
      model = LanguageModel.fromEnvironment(environment.variables());
    } catch (IllegalArgumentException misconfigured) {
      throw UserError.usage(misconfigured.getMessage() + "; fix the variable or unset it");
    }
    RecallSessions sessions = new RecallSessions(ClaudeLayout.of(environment).stateHome());
    SurfacedMemories surfaced = session == null ? SurfacedMemories.NONE : sessions.load(session);
    RecallResult result =
        new Recall(model, clock)
            .recall(
                location.directory(),
                query,
                tools.stream().map(String::strip).filter(tool -> !tool.isEmpty()).toList(),
                surfaced);
    if (session != null && !result.memories().isEmpty()) {
      sessions.save(session, surfaced.plus(result.memories()));
    }
    switch (format.value()) {
      case json -> out.println(JSON.writeValueAsString(json(query, result)));
      case text -> {
        for (int i = 0; i < result.memories().size(); i++) {
          if (i > 0) {
            out.println();
          }
          out.println(result.memories().get(i).render());
        }
        err.println(
            "tmem: "
                + result.memories().size()
                + " of "
                + result.candidates()
                + " memories, picked by "
                + result.rankedBy()
                + (result.budgetExhausted() ? "; the session's 60 KiB budget is used up" : ""));
      }
    }
    return 0;
  }

  private static ObjectNode json(String query, RecallResult result) {
    ObjectNode json = JSON.createObjectNode();
    json.put("query", query);
    json.put("rankedBy", result.rankedBy());
    json.put("candidates", result.candidates());
    ArrayNode memories = json.putArray("memories");
    for (RecalledMemory memory : result.memories()) {
      ObjectNode node = memories.addObject();
      node.put("path", memory.file().toString());
      node.put("filename", memory.filename());
      node.put("modified", memory.modified().toString());
      node.put("ageDays", memory.ageDays());
      node.put("header", memory.header());
      node.put("content", memory.content());
      node.put("truncated", memory.truncated());
      node.put("bytes", memory.bytes());
    }
    json.put("sessionBytes", result.sessionBytes());
    json.put("sessionBudgetBytes", Recall.MAX_SESSION_BYTES);
    json.put("budgetExhausted", result.budgetExhausted());
    return json;
  }
}
