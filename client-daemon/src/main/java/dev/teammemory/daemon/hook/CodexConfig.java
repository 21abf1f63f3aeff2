package dev.teammemory.daemon.hook;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * tmem's part of Codex's {@code config.toml}: one block between two marker comments, edited as
 * text, so that every other line of the person's file stays byte for byte as it was (a TOML library
 * would rewrite their formatting and comments). The block registers {@code tmem mcp} under {@code
 * [mcp_servers.tmem]} (required, so that Codex waits for it before the first turn; memory_save
 * approved, since Codex refuses an unannotated writing tool under {@code approval_policy =
 * "never"}), adds the hooks, and trusts them.
 *
 * <p>Codex skips hooks nobody trusted, silently. Its {@code /hooks} screen trusts one by writing
 * {@code [hooks.state."<config path>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"}, the
 * SHA-256 of the hook's compact, key-sorted JSON ({@link #trustHash}); the installer writes the
 * same table, checked against what {@code codex app-server}'s {@code hooks/list} reports as {@code
 * currentHash} (Codex 0.171.0).
 */
final class CodexConfig {

  static final String BEGIN =
      "# >>> tmem: written by `tmem hook install --agent codex`; `tmem hook uninstall --agent codex`"
          + " removes it >>>";

  /** The begin marker when the file did not end with a newline and tmem added one before it. */
  static final String BEGIN_AFTER_ADDED_NEWLINE = BEGIN + " (after a newline tmem added)";

  static final String END = "# <<< tmem <<<";

  /** How long Codex waits for {@code tmem mcp} to start: a JVM on a loaded machine. */
  static final int MCP_STARTUP_SECONDS = 60;

  /** Codex's hook timeout, seconds: more than the shim's own limit. */
  static final int HOOK_TIMEOUT_SECONDS = 60;

  private static final ObjectMapper SORTED =
      new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

  /** One hook tmem adds: the Codex event, its matcher and the command it runs. */
  record Hook(String event, Optional<String> matcher, String command, int timeoutSeconds) {
    Hook {
      requireNonNull(event, "event is null");
      requireNonNull(matcher, "matcher is null");
      requireNonNull(command, "command is null");
      if (timeoutSeconds < 1) {
        throw new IllegalArgumentException("timeoutSeconds must be positive: " + timeoutSeconds);
      }
    }

    Hook(String event, Optional<String> matcher, String command) {
      this(event, matcher, command, HOOK_TIMEOUT_SECONDS);
    }

    /** The event as Codex names it in a trust key and in the hashed JSON: {@code session_start}. */
    String snakeEvent() {
      return event.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * What goes in the block.
   *
   * @param mcpCommand the program Codex starts for {@code tmem mcp}, and its arguments
   * @param mcpEnvironment the variables Codex passes on to it (it passes only a few of its own)
   */
  record Block(List<String> mcpCommand, List<String> mcpEnvironment, List<Hook> hooks) {
    Block {
      mcpCommand = List.copyOf(mcpCommand);
      mcpEnvironment = List.copyOf(mcpEnvironment);
      hooks = List.copyOf(hooks);
      if (mcpCommand.isEmpty()) {
        throw new IllegalArgumentException("mcpCommand is empty");
      }
    }
  }

  private CodexConfig() {}

  /**
   * The file with tmem's block in it: where an earlier block was, else at the end (TOML tables may
   * follow anything).
   *
   * @param configFile the absolute path of the file, as Codex names it in trust keys
   */
  static String install(String text, Path configFile, Block block) {
    Optional<int[]> existing = find(text);
    if (existing.isPresent()) {
      int[] range = existing.get();
      String before = text.substring(0, range[0]);
      boolean addedNewline = text.startsWith(BEGIN_AFTER_ADDED_NEWLINE, range[0]);
      return before + render(before, configFile, block, addedNewline) + text.substring(range[1]);
    }
    boolean addNewline = !text.isEmpty() && !text.endsWith("\n");
    String before = addNewline ? text + "\n" : text;
    return before + render(before, configFile, block, addNewline);
  }

  /** The file without tmem's block, as it was before the install; unchanged when there is none. */
  static String uninstall(String text) {
    Optional<int[]> existing = find(text);
    if (existing.isEmpty()) {
      return text;
    }
    int[] range = existing.get();
    String before = text.substring(0, range[0]);
    if (text.startsWith(BEGIN_AFTER_ADDED_NEWLINE, range[0]) && before.endsWith("\n")) {
      before = before.substring(0, before.length() - 1);
    }
    return before + text.substring(range[1]);
  }

  static boolean installed(String text) {
    return find(text).isPresent();
  }

  /** Start (the begin marker's line) and end (after the end marker's line break) of the block. */
  private static Optional<int[]> find(String text) {
    int begin = lineStarting(text, BEGIN, 0);
    if (begin < 0) {
      return Optional.empty();
    }
    int end = lineStarting(text, END, begin);
    if (end < 0) {
      throw new IllegalArgumentException(
          "tmem's block has a begin marker but no end marker (" + END + ")");
    }
    int lineBreak = text.indexOf('\n', end);
    return Optional.of(new int[] {begin, lineBreak < 0 ? text.length() : lineBreak + 1});
  }

  private static int lineStarting(String text, String marker, int from) {
    for (int at = text.indexOf(marker, from); at >= 0; at = text.indexOf(marker, at + 1)) {
      if (at == 0 || text.charAt(at - 1) == '\n') {
        return at;
      }
    }
    return -1;
  }

  private static String render(String before, Path configFile, Block block, boolean addedNewline) {
    StringBuilder toml = new StringBuilder();
    toml.append(addedNewline ? BEGIN_AFTER_ADDED_NEWLINE : BEGIN).append('\n');
    toml.append("[mcp_servers.tmem]\n");
    toml.append("command = ").append(string(block.mcpCommand().getFirst())).append('\n');
    toml.append("args = ")
        .append(array(block.mcpCommand().subList(1, block.mcpCommand().size())))
        .append('\n');
    if (!block.mcpEnvironment().isEmpty()) {
      toml.append("env_vars = ").append(array(block.mcpEnvironment())).append('\n');
    }
    // Without required, codex exec starts the first turn before a JVM has answered initialize,
    // and the model's first call to a memory tool finds no such tool.
    toml.append("required = true\nstartup_timeout_sec = ").append(MCP_STARTUP_SECONDS).append('\n');
    toml.append("\n[mcp_servers.tmem.tools.memory_save]\napproval_mode = \"approve\"\n");
    StringBuilder trust = new StringBuilder();
    for (Hook hook : block.hooks()) {
      toml.append("\n[[hooks.").append(hook.event()).append("]]\n");
      hook.matcher()
          .ifPresent(matcher -> toml.append("matcher = ").append(string(matcher)).append('\n'));
      toml.append("\n[[hooks.").append(hook.event()).append(".hooks]]\n");
      toml.append("type = \"command\"\n");
      toml.append("command = ").append(string(hook.command())).append('\n');
      toml.append("timeout = ").append(hook.timeoutSeconds()).append('\n');
      int group = groupsBefore(before, hook.event());
      trust
          .append("\n[hooks.state.")
          .append(string(configFile + ":" + hook.snakeEvent() + ":" + group + ":0"))
          .append("]\ntrusted_hash = ")
          .append(string(trustHash(hook)))
          .append('\n');
    }
    toml.append(trust);
    toml.append(END).append('\n');
    return toml.toString();
  }

  /** How many hook groups of {@code event} the file has before tmem's block: Codex counts them. */
  static int groupsBefore(String before, String event) {
    Matcher headers =
        Pattern.compile(
                "(?m)^[ \\t]*\\[\\[[ \\t]*hooks\\.\"?" + Pattern.quote(event) + "\"?[ \\t]*\\]\\]")
            .matcher(before);
    int count = 0;
    while (headers.find()) {
      count++;
    }
    return count;
  }

  /**
   * The hash Codex trusts a hook by: SHA-256 over the compact JSON, keys sorted, of {@code
   * {event_name, matcher?, hooks: [{type, command, timeout, async}]}}.
   */
  static String trustHash(Hook hook) {
    ObjectNode identity = SORTED.createObjectNode().put("event_name", hook.snakeEvent());
    hook.matcher().ifPresent(matcher -> identity.put("matcher", matcher));
    identity
        .putArray("hooks")
        .addObject()
        .put("type", "command")
        .put("command", hook.command())
        .put("timeout", hook.timeoutSeconds())
        .put("async", false);
    try {
      byte[] json = SORTED.writeValueAsBytes(SORTED.treeToValue(identity, Object.class));
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
    } catch (NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException wrong) {
      throw new IllegalStateException("hashing a hook failed", wrong);
    }
  }

  /** A TOML basic string. */
  static String string(String value) {
    StringBuilder quoted = new StringBuilder("\"");
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        case '\t' -> quoted.append("\\t");
        case '\r' -> quoted.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            quoted.append(String.format("\\u%04X", (int) c));
          } else {
            quoted.append(c);
          }
        }
      }
    }
    return quoted.append('"').toString();
  }

  private static String array(List<String> values) {
    return "[" + String.join(", ", values.stream().map(CodexConfig::string).toList()) + "]";
  }
}
