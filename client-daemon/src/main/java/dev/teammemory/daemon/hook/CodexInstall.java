package dev.teammemory.daemon.hook;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.home.Environment;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code tmem hook install --agent codex} and {@code uninstall --agent codex}: tmem's block in
 * Codex's {@code config.toml} ({@link CodexConfig}), with the hooks running tmem's hook shim in
 * Codex's mode and {@code tmem mcp} registered.
 */
final class CodexInstall {

  /** The variables {@code tmem mcp} reads that Codex would not pass on by itself. */
  static final List<String> PASSED_ON =
      List.of(
          "XDG_STATE_HOME",
          "CLAUDE_CONFIG_DIR",
          "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE",
          "JAVA_HOME",
          "TMEM_OFFLINE",
          "ANTHROPIC_API_KEY",
          "ANTHROPIC_BASE_URL");

  private CodexInstall() {}

  /** {@code $CODEX_HOME/config.toml}, else {@code ~/.codex/config.toml}, absolute. */
  static Path configFile(Environment environment) {
    Path codexHome =
        environment
            .get("CODEX_HOME")
            .map(home -> environment.workingDirectory().resolve(home))
            .orElse(environment.home().resolve(".codex"));
    return codexHome.toAbsolutePath().normalize().resolve("config.toml");
  }

  /** The block for a tmem started as {@code prefix} (shell words) with its shim in stateHome. */
  static CodexConfig.Block block(Path stateHome, String prefix) {
    return new CodexConfig.Block(
        List.of("/bin/sh", "-c", "exec " + prefix + " mcp"),
        PASSED_ON,
        List.of(
            new CodexConfig.Hook(
                "SessionStart", Optional.of("startup|resume"), command(stateHome, "session-start")),
            new CodexConfig.Hook(
                "UserPromptSubmit", Optional.empty(), command(stateHome, "user-prompt")),
            new CodexConfig.Hook("Stop", Optional.empty(), command(stateHome, "stop"))));
  }

  private static String command(Path stateHome, String subcommand) {
    return HookShim.command(stateHome, subcommand, false) + " --agent codex";
  }

  static void install(Environment environment, Path stateHome, String prefix, PrintWriter out)
      throws IOException {
    Path config = configFile(environment);
    String before = read(config);
    String after;
    try {
      after = CodexConfig.install(before, config, block(stateHome, prefix));
    } catch (IllegalArgumentException unexpectedShape) {
      throw new IllegalStateException(
          config + ": " + unexpectedShape.getMessage() + "; fix it by hand first");
    }
    Path shim = HookShim.write(stateHome, prefix);
    out.println("wrote the hook shim " + shim);
    if (after.equals(before)) {
      out.println("tmem's block is already in " + config + "; nothing changed");
      return;
    }
    Files.createDirectories(config.getParent());
    AtomicFiles.write(config, after.getBytes(StandardCharsets.UTF_8));
    out.println(
        "added tmem's hooks (SessionStart, UserPromptSubmit, Stop) and MCP server (tmem mcp,"
            + " memory_save approved) to "
            + config);
    out.println(
        "trusted the hooks in "
            + config
            + " ([hooks.state]); if you edit their lines, trust them again in Codex's /hooks");
    out.println("start a new Codex session for them to take effect");
  }

  static void uninstall(Environment environment, PrintWriter out) throws IOException {
    Path config = configFile(environment);
    String before = read(config);
    String after = CodexConfig.uninstall(before);
    if (after.equals(before)) {
      out.println("no tmem block in " + config + "; nothing changed");
      return;
    }
    AtomicFiles.write(config, after.getBytes(StandardCharsets.UTF_8));
    out.println("removed tmem's hooks and MCP server from " + config);
  }

  private static String read(Path config) throws IOException {
    try {
      return Files.readString(config, StandardCharsets.UTF_8);
    } catch (NoSuchFileException absent) {
      return "";
    }
  }
}
