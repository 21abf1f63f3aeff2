package dev.teammemory.daemon.memory;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.regex.Pattern;

/**
 * Claude Code's on-disk layout, so that the daemon and the agent read and write the same files.
 *
 * @param configHome {@code $CLAUDE_CONFIG_DIR}, else {@code ~/.claude}
 * @param stateHome the daemon's own state: {@code ${XDG_STATE_HOME:-~/.local/state}/tmem}
 */
public record ClaudeLayout(Path configHome, Path stateHome) {

  /** Sanitised names longer than this are cut and given a hash suffix, as the reference does. */
  static final int MAX_SANITIZED_LENGTH = 200;

  private static final Pattern SESSION_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  public ClaudeLayout {
    requireNonNull(configHome, "configHome is null");
    requireNonNull(stateHome, "stateHome is null");
    configHome = configHome.toAbsolutePath().normalize();
    stateHome = stateHome.toAbsolutePath().normalize();
  }

  public static ClaudeLayout of(Environment environment) {
    Path configHome =
        environment
            .get("CLAUDE_CONFIG_DIR")
            .map(
                dir ->
                    environment
                        .workingDirectory()
                        .resolve(Normalizer.normalize(dir, Normalizer.Form.NFC)))
            .orElse(environment.home().resolve(".claude"));
    Path stateHome = StateHome.of(environment);
    return new ClaudeLayout(configHome, stateHome);
  }

  public Path projectsDirectory() {
    return configHome.resolve("projects");
  }

  /** Where the agent keeps a working directory's transcripts and session notes. */
  public Path projectDirectory(Path workingDirectory) {
    return projectsDirectory().resolve(sanitize(workingDirectory.toString()));
  }

  /** {@code <config home>/projects/<sanitized cwd>/<session id>.jsonl}. */
  public Path transcript(Path workingDirectory, String sessionId) {
    return projectDirectory(workingDirectory).resolve(checkSessionId(sessionId) + ".jsonl");
  }

  /** {@code <config home>/projects/<sanitized cwd>/<session id>/session-memory/summary.md}. */
  public Path sessionNotes(Path workingDirectory, String sessionId) {
    return projectDirectory(workingDirectory)
        .resolve(checkSessionId(sessionId))
        .resolve("session-memory")
        .resolve("summary.md");
  }

  /** The session notes that belong to a transcript at its usual place: beside it, by session id. */
  public static Path sessionNotesBeside(Path transcript) {
    String fileName = transcript.getFileName().toString();
    String sessionId =
        fileName.endsWith(".jsonl")
            ? fileName.substring(0, fileName.length() - ".jsonl".length())
            : fileName;
    return transcript
        .toAbsolutePath()
        .normalize()
        .resolveSibling(checkSessionId(sessionId))
        .resolve("session-memory")
        .resolve("summary.md");
  }

  /** Custom session-notes template and prompt: {@code template.md} and {@code prompt.md}. */
  public Path sessionMemoryConfig() {
    return configHome.resolve("session-memory").resolve("config");
  }

  public Path userSettings() {
    return configHome.resolve("settings.json");
  }

  /**
   * Makes a path one directory name as Claude Code does: every character outside {@code
   * [A-Za-z0-9]} (each UTF-16 unit) becomes {@code -}; names longer than 200 keep their first 200
   * characters plus {@code -} and a base-36 hash of the original, the 32-bit hash the reference
   * computes under Node ({@code h = h * 31 + c}, which is Java's {@link String#hashCode()}), made
   * positive with JavaScript's {@code Math.abs}.
   */
  public static String sanitize(String path) {
    StringBuilder sanitized = new StringBuilder(path.length());
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      sanitized.append(plain ? c : '-');
    }
    if (sanitized.length() <= MAX_SANITIZED_LENGTH) {
      return sanitized.toString();
    }
    long hash = Math.abs((long) path.hashCode());
    return sanitized.substring(0, MAX_SANITIZED_LENGTH) + "-" + Long.toString(hash, 36);
  }

  /**
   * A session id is used as a file name; anything that could climb out of the project directory is
   * refused.
   *
   * @throws IllegalArgumentException naming the id
   */
  public static String checkSessionId(String sessionId) {
    requireNonNull(sessionId, "sessionId is null");
    if (!SESSION_ID.matcher(sessionId).matches()) {
      throw new IllegalArgumentException(
          "a session id is letters, digits, '.', '_' or '-' (up to 128), starting with a letter or"
              + " digit: "
              + sessionId);
    }
    return sessionId;
  }
}
