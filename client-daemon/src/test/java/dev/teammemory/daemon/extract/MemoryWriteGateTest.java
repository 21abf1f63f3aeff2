package dev.teammemory.daemon.extract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.model.Permission;
import dev.teammemory.daemon.secrets.SecretGuard;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryWriteGateTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  private Path memory;
  private MemoryWriteGate gate;

  @BeforeEach
  void gate() throws IOException {
    memory = Files.createDirectories(home.resolve("memory"));
    gate = new MemoryWriteGate(memory, SecretGuard.withDefaultRules(), Optional.empty());
  }

  /** A GitHub token made at test time, so the repository holds no token-shaped string. */
  static String githubToken() {
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    Random random = new Random(11);
    StringBuilder token = new StringBuilder("ghp_");
    for (int i = 0; i < 36; i++) {
      token.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return token.toString();
  }

  private static ObjectNode write(Path file, String content) {
    return JSON.createObjectNode().put("file_path", file.toString()).put("content", content);
  }

  private static ObjectNode edit(Path file, String oldString, String newString) {
    return JSON.createObjectNode()
        .put("file_path", file.toString())
        .put("old_string", oldString)
        .put("new_string", newString);
  }

  private static String denial(Permission permission) {
    assertThat(permission).isInstanceOf(Permission.Deny.class);
    return ((Permission.Deny) permission).message();
  }

  @Test
  void anyFileMayBeRead() {
    assertThat(gate.check("Read", JSON.createObjectNode().put("file_path", "/etc/hostname")))
        .isInstanceOf(Permission.Allow.class);
  }

  @Test
  void markdownFilesInsideMemoryMayBeWrittenAndEditedAndOnlyRealChangesCount() throws IOException {
    assertThat(gate.check("Write", write(memory.resolve("feedback_testing.md"), "x")))
        .isInstanceOf(Permission.Allow.class);
    assertThat(gate.check("Edit", edit(memory.resolve("MEMORY.md"), "", "- [T](t.md) — t")))
        .isInstanceOf(Permission.Allow.class);
    // The Write ran; the Edit was allowed but failed (its text was not found): nothing changed.
    Files.createDirectories(memory);
    Files.writeString(memory.resolve("feedback_testing.md"), "x");

    assertThat(gate.written())
        .containsExactly(memory.resolve("feedback_testing.md").toAbsolutePath());
  }

  @Test
  void writesOutsideMemoryAreDeniedEvenThroughDotDot() {
    assertThat(denial(gate.check("Write", write(home.resolve("src/Main.md"), "x"))))
        .isEqualTo(
            "writes are allowed only inside the memory directory " + memory.toAbsolutePath());
    assertThat(denial(gate.check("Edit", edit(memory.resolve("../escape.md"), "a", "b"))))
        .startsWith("writes are allowed only inside");
    assertThat(
            denial(
                gate.check(
                    "Write",
                    JSON.createObjectNode().put("file_path", "relative.md").put("content", "x"))))
        .isEqualTo("Write needs an absolute file_path");
  }

  @Test
  void aSymbolicLinkInsideMemoryCannotLeadAWriteOutside() throws IOException {
    Path outside = Files.createDirectories(home.resolve("outside"));
    Files.createSymbolicLink(memory.resolve("link"), outside);
    Files.createSymbolicLink(memory.resolve("dangling.md"), home.resolve("nowhere/target.md"));

    assertThat(denial(gate.check("Write", write(memory.resolve("link/x.md"), "x"))))
        .startsWith("writes are allowed only inside");
    assertThat(denial(gate.check("Write", write(memory.resolve("dangling.md"), "x"))))
        .isEqualTo(
            memory.resolve("dangling.md")
                + " goes through a symbolic link that leads nowhere; it cannot be written");
  }

  @Test
  void onlyMarkdownMayBeWritten() {
    assertThat(denial(gate.check("Write", write(memory.resolve(".consolidate-lock"), "1"))))
        .isEqualTo("only markdown (.md) memory files may be written");
  }

  @Test
  void aTeamWriteThatLooksLikeASecretIsRefusedNamingTheRuleNotTheSecret() {
    String token = githubToken();

    String message =
        denial(gate.check("Write", write(memory.resolve("team/ci.md"), "CI uses " + token)));

    assertThat(message)
        .startsWith(
            "refused: team memory is shared, and this content looks like a secret (github-pat")
        .doesNotContain(token);
    assertThat(
            gate.check(
                "Write", write(memory.resolve("team/ci.md"), "CI uses the token in the vault")))
        .isInstanceOf(Permission.Allow.class);
  }

  @Test
  void anEditThatWouldPutASecretIntoATeamFileIsRefused() throws IOException {
    Files.createDirectories(memory.resolve("team"));
    Files.writeString(memory.resolve("team/ci.md"), "token: TBD\n");

    assertThat(denial(gate.check("Edit", edit(memory.resolve("team/ci.md"), "TBD", githubToken()))))
        .startsWith("refused: team memory is shared");
  }

  @Test
  void readOnlyShellCommandsRunAndWritersAreDenied() {
    assertThat(gate.check("Bash", JSON.createObjectNode().put("command", "ls -la " + memory)))
        .isInstanceOf(Permission.Allow.class);
    assertThat(
            denial(gate.check("Bash", JSON.createObjectNode().put("command", "rm -rf " + memory))))
        .isEqualTo("Only read-only shell commands are permitted here: rm deletes files");
  }

  @Test
  void otherToolsAreDenied() {
    assertThat(denial(gate.check("WebFetch", JSON.createObjectNode())))
        .isEqualTo(
            "WebFetch is not available to this agent; it may Read, Grep, Glob, run read-only Bash, and Edit or Write memory files");
  }

  @Test
  void inDailyLogModeOnlyTodaysLogMayBeWrittenAndOnlyByAppending() throws IOException {
    Path today = memory.resolve("logs/2026/03/2026-03-02.md");
    Files.createDirectories(today.getParent());
    Files.writeString(today, "# 2026-03-02\n\n- 09:00 user prefers bun\n");
    MemoryWriteGate logGate =
        new MemoryWriteGate(memory, SecretGuard.withDefaultRules(), Optional.of(today));

    assertThat(
            logGate.check(
                "Write",
                write(
                    today,
                    "# 2026-03-02\n\n- 09:00 user prefers bun\n- 10:00 deploys on Fridays\n")))
        .isInstanceOf(Permission.Allow.class);
    assertThat(denial(logGate.check("Write", write(today, "# rewritten\n"))))
        .isEqualTo("the daily log is append-only: keep what it says and add bullets at the end");
    assertThat(denial(logGate.check("Edit", edit(memory.resolve("MEMORY.md"), "", "x"))))
        .contains("MEMORY.md and topic files are read-only");
  }

  @Test
  void anEditOfATeamFileThatIsAFifoIsDeniedInsteadOfHanging() throws Exception {
    Path fifo = Files.createDirectories(memory.resolve("team")).resolve("fifo.md");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

    Permission permission =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10), () -> gate.check("Edit", edit(fifo, "a", "b")));

    assertThat(denial(permission))
        .isEqualTo(
            "the new content of "
                + fifo.toRealPath()
                + " cannot be worked out, so it cannot be checked for secrets");
  }

  @Test
  void aDailyLogWithAByteThatIsNotUtf8MayStillBeAppendedTo() throws IOException {
    Path today = memory.resolve("logs/2026/03/2026-03-02.md");
    Files.createDirectories(today.getParent());
    Files.write(today, "- 09:00 caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    MemoryWriteGate logGate =
        new MemoryWriteGate(memory, SecretGuard.withDefaultRules(), Optional.of(today));

    assertThat(logGate.check("Write", write(today, "- 09:00 caf\uFFFD\n- 10:00 tea\n")))
        .isInstanceOf(Permission.Allow.class);
  }

  @Test
  void aWriteThroughALinkInTeamWritesTheFileTheGateJudgedAndLeavesTheLink() throws IOException {
    Path team = Files.createDirectories(memory.resolve("team"));
    Files.writeString(memory.resolve("private.md"), "old\n");
    Path link = Files.createSymbolicLink(team.resolve("x.md"), Path.of("../private.md"));
    String content = "token " + githubToken() + "\n";

    Permission permission = gate.check("Write", write(link, content));

    assertThat(permission).isInstanceOf(Permission.Allow.class);
    JsonNode allowed = ((Permission.Allow) permission).input();
    assertThat(allowed.get("file_path").asText())
        .isEqualTo(memory.toRealPath().resolve("private.md").toString());
    assertThat(allowed.get("content").asText()).isEqualTo(content);
    new WriteTool().execute(allowed);
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(memory.resolve("private.md")).hasContent(content.strip());
  }
}
