package dev.teammemory.daemon.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.Environment;
import dev.teammemory.daemon.recall.RecallCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;

/**
 * Recall for a prompt, through {@code tmem recall --session ID --format json}: going through the
 * command keeps one record of what each session was shown, so the hook and a person running {@code
 * tmem recall --session} share the "not shown before" rule and the 60 KiB budget.
 */
final class SessionRecall {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The memories as the agent reads them, or why there are none. */
  record Recalled(List<String> memories, Optional<String> problem) {
    Recalled {
      memories = List.copyOf(memories);
    }
  }

  private SessionRecall() {}

  static Recalled recall(
      Environment inProject,
      Clock clock,
      Optional<String> sessionId,
      String prompt,
      List<String> tools) {
    List<String> arguments = new ArrayList<>(List.of("--format", "json"));
    Optional<String> session = sessionId.filter(SessionRecall::validSessionId);
    session.ifPresent(id -> arguments.addAll(List.of("--session", id)));
    if (!tools.isEmpty()) {
      arguments.addAll(List.of("--tools", String.join(",", tools)));
    }
    arguments.add("--");
    arguments.add(prompt);
    CommandLine command = new CommandLine(new RecallCommand(inProject, clock));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    command.setExecutionExceptionHandler(
        (exception, line, parseResult) -> {
          line.getErr()
              .println(
                  exception.getClass().getSimpleName()
                      + (exception.getMessage() == null ? "" : ": " + exception.getMessage()));
          return 1;
        });
    int exit = command.execute(arguments.toArray(String[]::new));
    if (exit != 0) {
      return new Recalled(List.of(), Optional.of("recall failed: " + err.toString().strip()));
    }
    try {
      JsonNode root = JSON.readTree(out.toString());
      List<String> memories = new ArrayList<>();
      for (JsonNode memory : root.path("memories")) {
        memories.add(memory.path("header").asText() + "\n" + memory.path("content").asText());
      }
      return new Recalled(memories, Optional.empty());
    } catch (IOException notJson) {
      return new Recalled(
          List.of(), Optional.of("recall answered with something that is not JSON"));
    }
  }

  private static boolean validSessionId(String id) {
    try {
      ClaudeLayout.checkSessionId(id);
      return true;
    } catch (IllegalArgumentException invalid) {
      return false;
    }
  }
}
