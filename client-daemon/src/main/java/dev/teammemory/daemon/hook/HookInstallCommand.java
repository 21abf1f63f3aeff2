package dev.teammemory.daemon.hook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.command.EngineCommand;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tmem hook install}: writes the hook shim ({@link HookShim}) into the state home and adds
 * the four hooks, each running it, to the user's Claude Code settings ({@code
 * $CLAUDE_CONFIG_DIR/settings.json}, else {@code ~/.claude/settings.json}). Existing hooks and
 * settings stay; a hook already installed is not added again, and one of an earlier install that
 * differs (the JVM command, another option) is replaced; the previous file is kept as {@code
 * settings.json.bak}; the new one replaces it atomically with the same permissions.
 */
@Command(
    name = "install",
    description = {
      "Add tmem's SessionStart, UserPromptSubmit, PreCompact and Stop hooks to your Claude Code"
          + " settings, keeping every hook and setting already there.",
      "Each hook runs <state home>/bin/tmem-hook, a small sh + curl script that asks the running"
          + " tmem daemon and starts tmem itself only when no daemon answers.",
      "The previous settings are kept as settings.json.bak."
    },
    mixinStandardHelpOptions = true)
public final class HookInstallCommand extends EngineCommand {

  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Option(
      names = "--command",
      paramLabel = "CMD",
      description =
          "How the hooks start tmem when no daemon answers (default: this java and tmem.jar,"
              + " e.g. '/usr/bin/java' -jar '/opt/tmem.jar').")
  String command;

  @Option(
      names = "--private-index",
      description =
          "Also give the agent the private MEMORY.md and the full memory instructions at session"
              + " start, for agents that do not load them themselves (today's Claude Code does).")
  boolean privateIndex;

  @Option(
      names = "--dry-run",
      description = "Print the settings that would be written; change nothing.")
  boolean dryRun;

  @Option(
      names = "--agent",
      paramLabel = "AGENT",
      defaultValue = "claude-code",
      description =
          "claude-code (default: ~/.claude/settings.json) or codex (~/.codex/config.toml, or"
              + " $CODEX_HOME's: the hooks, trusted, and tmem mcp; docs/agents.md).")
  String agent;

  public HookInstallCommand() {
    this(Environment.system());
  }

  public HookInstallCommand(Environment environment) {
    super(environment, Clock.systemUTC());
  }

  @Override
  public Integer call() throws IOException {
    ClaudeLayout layout = ClaudeLayout.of(environment);
    Path settingsFile = layout.userSettings();
    Path stateHome = layout.stateHome();
    String prefix = command != null ? command.strip() : runningJarCommand();
    if (codex(agent)) {
      if (dryRun || privateIndex) {
        throw UserError.usage("--dry-run and --private-index are for Claude Code's hooks");
      }
      CodexInstall.install(environment, stateHome, prefix, out());
      return 0;
    }
    ObjectNode settings = readSettings(settingsFile);
    List<String> added =
        changed(
            settingsFile,
            () ->
                HookSettings.install(
                    settings,
                    hook -> HookShim.command(stateHome, hook.subcommand(), privateIndex),
                    existing -> ours(existing, prefix, stateHome)));
    PrintWriter out = out();
    if (dryRun) {
      out.println(JSON.writeValueAsString(settings));
      return 0;
    }
    Path shim = HookShim.write(stateHome, prefix);
    out.println("wrote the hook shim " + shim);
    if (added.isEmpty()) {
      out.println("tmem's hooks are already in " + settingsFile + "; nothing changed");
      return 0;
    }
    write(settingsFile, settings);
    out.println("added tmem hooks for " + String.join(", ", added) + " to " + settingsFile);
    if (Files.exists(backup(settingsFile))) {
      out.println("the previous settings are in " + backup(settingsFile));
    }
    out.println("start a new Claude Code session for them to take effect");
    return 0;
  }

  /** Applies a change to the settings; a shape tmem does not understand is left unchanged. */
  static <T> T changed(Path settingsFile, Supplier<T> change) {
    try {
      return change.get();
    } catch (IllegalArgumentException unexpectedShape) {
      throw UserError.problem(
          settingsFile
              + ": "
              + unexpectedShape.getMessage()
              + "; fix it by hand first; nothing was changed");
    }
  }

  /** {@code tmem hook uninstall}: takes the hooks out again. */
  @Command(
      name = "uninstall",
      description =
          "Remove tmem's hooks from your Claude Code settings, keeping everything else, and"
              + " the hook shim they ran.",
      mixinStandardHelpOptions = true)
  public static final class Uninstall extends EngineCommand {

    @Option(
        names = "--command",
        paramLabel = "CMD",
        description =
            "The command the hooks were installed with (default: this java and tmem.jar).")
    String command;

    @Option(
        names = "--agent",
        paramLabel = "AGENT",
        defaultValue = "claude-code",
        description = "claude-code (default) or codex: whose settings to take tmem's hooks out of.")
    String agent;

    public Uninstall() {
      this(Environment.system());
    }

    public Uninstall(Environment environment) {
      super(environment, Clock.systemUTC());
    }

    @Override
    public Integer call() throws IOException {
      if (codex(agent)) {
        // The hook shim stays: Claude Code's hooks may run it too.
        CodexInstall.uninstall(environment, spec.commandLine().getOut());
        return 0;
      }
      ClaudeLayout layout = ClaudeLayout.of(environment);
      Path settingsFile = layout.userSettings();
      String prefix = command != null ? command.strip() : runningJarCommand();
      ObjectNode settings = readSettings(settingsFile);
      int removed =
          changed(
              settingsFile,
              () ->
                  HookSettings.uninstall(
                      settings, existing -> ours(existing, prefix, layout.stateHome())));
      PrintWriter out = spec.commandLine().getOut();
      if (removed == 0) {
        out.println("no tmem hooks in " + settingsFile + "; the settings are unchanged");
      } else {
        write(settingsFile, settings);
        out.println("removed " + removed + " tmem hooks from " + settingsFile);
      }
      // The shim is deleted after the settings stop naming it, so that no hook is left running a
      // missing file; one left behind by an earlier uninstall goes too.
      if (HookShim.delete(layout.stateHome())) {
        out.println("removed the hook shim " + HookShim.file(layout.stateHome()));
      }
      return 0;
    }
  }

  /** A hook command of tmem's: the shim's, or an earlier install's {@code <prefix> hook …}. */
  static boolean ours(String command, String prefix, Path stateHome) {
    return HookShim.runs(stateHome, command) || command.startsWith(prefix + " hook ");
  }

  static ObjectNode readSettings(Path settingsFile) throws IOException {
    String text;
    try {
      text = Files.readString(settingsFile, StandardCharsets.UTF_8);
    } catch (NoSuchFileException absent) {
      return HookSettings.empty();
    }
    if (text.isBlank()) {
      return HookSettings.empty();
    }
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException invalid) {
      throw UserError.problem(
          settingsFile
              + " is not valid JSON (line "
              + invalid.getLocation().getLineNr()
              + "); fix it first; nothing was changed");
    }
    if (!(root instanceof ObjectNode object)) {
      throw UserError.problem(
          settingsFile + " is not a JSON object; fix it first; nothing was changed");
    }
    return object;
  }

  /** Keeps the old file as {@code .bak}, then replaces it atomically with its permissions. */
  static void write(Path settingsFile, ObjectNode settings) throws IOException {
    Optional<Set<PosixFilePermission>> permissions = Optional.empty();
    if (Files.exists(settingsFile)) {
      Files.copy(
          settingsFile,
          backup(settingsFile),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.COPY_ATTRIBUTES);
      try {
        permissions = Optional.of(Files.getPosixFilePermissions(settingsFile));
      } catch (UnsupportedOperationException notPosix) {
        permissions = Optional.empty();
      }
    }
    byte[] text = (JSON.writeValueAsString(settings) + "\n").getBytes(StandardCharsets.UTF_8);
    if (permissions.isPresent()) {
      AtomicFiles.write(settingsFile, text, permissions.get());
    } else {
      AtomicFiles.write(settingsFile, text);
    }
  }

  static Path backup(Path settingsFile) {
    return settingsFile.resolveSibling(settingsFile.getFileName() + ".bak");
  }

  /** {@code '<java>' -jar '<tmem.jar>'} for the jar this process runs from. */
  static String runningJarCommand() {
    Path location;
    try {
      location =
          Path.of(
              HookInstallCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | SecurityException | NullPointerException unknown) {
      throw UserError.usage(
          "could not tell which tmem.jar is running; pass --command with how to start tmem");
    }
    if (!Files.isRegularFile(location) || !location.getFileName().toString().endsWith(".jar")) {
      throw UserError.usage(
          "this tmem does not run from a jar; pass --command with how to start tmem, or run the"
              + " packaged one: java -jar client-daemon/target/tmem.jar hook install");
    }
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    return shellQuoted(java.toString()) + " -jar " + shellQuoted(location.toString());
  }

  /** Whether {@code --agent} names Codex; anything but the two agents is a usage error. */
  static boolean codex(String agent) {
    return switch (agent) {
      case "codex" -> true;
      case "claude-code" -> false;
      default -> throw UserError.usage("--agent is claude-code or codex, not " + agent);
    };
  }

  static String shellQuoted(String word) {
    return word.matches("[A-Za-z0-9_./:=@%+-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }
}
