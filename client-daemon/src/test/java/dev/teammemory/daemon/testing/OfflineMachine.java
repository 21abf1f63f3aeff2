package dev.teammemory.daemon.testing;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A person's machine inside a test's folder, for the tests of what agents talk to (hooks, the local
 * API, MCP): the home, Claude Code's configuration, tmem's state and the project's memory folder
 * all under {@code home}, and the offline model, so that nothing reads the real home or the
 * network.
 */
public final class OfflineMachine {

  private OfflineMachine() {}

  /** The variables of the person's processes. */
  public static Map<String, String> variables(Path home, Path memory) {
    Map<String, String> variables = new LinkedHashMap<>();
    variables.put("HOME", home.toString());
    variables.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
    variables.put("XDG_STATE_HOME", home.resolve("state").toString());
    variables.put(MemoryLocation.OVERRIDE_VARIABLE, memory.toString());
    variables.put("TMEM_OFFLINE", "1");
    return variables;
  }

  /** The environment as seen from {@code workingDirectory}. */
  public static Environment environment(Path home, Path memory, Path workingDirectory) {
    return new Environment(Map.copyOf(variables(home, memory)), home, workingDirectory);
  }

  /**
   * The team memory the MCP tests search, list and read: one topic file (whose frontmatter claims
   * an author, which only the server may name) and the team index.
   */
  public static void teamTestingPolicy(Path memory) throws IOException {
    Files.createDirectories(memory.resolve("team"));
    Files.writeString(
        memory.resolve("team/testing-policy.md"),
        "---\nname: testing-policy\ndescription: integration tests hit a real database\n"
            + "type: feedback\nauthor: octocat\n---\n\nIntegration tests hit a real database, never"
            + " mocks.\n");
    Files.writeString(
        memory.resolve("team/MEMORY.md"),
        "- [testing-policy](testing-policy.md) — integration tests hit a real database\n");
  }

  /** Where tmem keeps its state on this machine. */
  public static Path stateHome(Path home) {
    return home.resolve("state").resolve("tmem");
  }
}
