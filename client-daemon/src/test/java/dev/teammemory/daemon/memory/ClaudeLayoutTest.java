package dev.teammemory.daemon.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.home.Environment;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ClaudeLayoutTest {

  private static final Path HOME = Path.of("/home/dev");

  /** Lines of sanitize-vectors.tsv, which the reference's own sanitizePath produced under Node. */
  static List<String[]> referenceVectors() throws IOException {
    List<String[]> vectors = new ArrayList<>();
    try (InputStream in =
        ClaudeLayoutTest.class.getResourceAsStream("/memory/sanitize-vectors.tsv")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] columns = line.split("\t");
        vectors.add(
            new String[] {new ObjectMapper().readValue(columns[0], String.class), columns[1]});
      }
    }
    return vectors;
  }

  @ParameterizedTest
  @MethodSource("referenceVectors")
  void sanitizesExactlyAsTheReferenceDoesUnderNode(String input, String expected) {
    assertThat(ClaudeLayout.sanitize(input)).isEqualTo(expected);
  }

  @Test
  void theReferenceVectorsIncludeLongPathsAndTheHashThatOverflowsAbs() throws IOException {
    assertThat(referenceVectors()).anyMatch(vector -> vector[1].endsWith("-zik0zk"));
    assertThat(referenceVectors())
        .filteredOn(vector -> vector[1].length() > 200)
        .hasSizeGreaterThan(4);
  }

  @Test
  void configHomeIsClaudeConfigDirElseDotClaude() {
    Environment plain = new Environment(Map.of(), HOME, Path.of("/work"));
    Environment configured =
        new Environment(Map.of("CLAUDE_CONFIG_DIR", "/etc/claude"), HOME, Path.of("/work"));

    assertThat(ClaudeLayout.of(plain).configHome()).isEqualTo(Path.of("/home/dev/.claude"));
    assertThat(ClaudeLayout.of(configured).configHome()).isEqualTo(Path.of("/etc/claude"));
  }

  @Test
  void theDaemonsStateIsUnderXdgStateHome() {
    assertThat(ClaudeLayout.of(new Environment(Map.of(), HOME, HOME)).stateHome())
        .isEqualTo(Path.of("/home/dev/.local/state/tmem"));
    assertThat(
            ClaudeLayout.of(new Environment(Map.of("XDG_STATE_HOME", "/var/state"), HOME, HOME))
                .stateHome())
        .isEqualTo(Path.of("/var/state/tmem"));
  }

  @Test
  void sessionFilesFollowTheAgentsLayout() {
    ClaudeLayout layout = ClaudeLayout.of(new Environment(Map.of(), HOME, HOME));
    Path cwd = Path.of("/home/dev/shop");

    assertThat(layout.transcript(cwd, "0b1c2d3e"))
        .isEqualTo(Path.of("/home/dev/.claude/projects/-home-dev-shop/0b1c2d3e.jsonl"));
    assertThat(layout.sessionNotes(cwd, "0b1c2d3e"))
        .isEqualTo(
            Path.of(
                "/home/dev/.claude/projects/-home-dev-shop/0b1c2d3e/session-memory/summary.md"));
    assertThat(ClaudeLayout.sessionNotesBeside(layout.transcript(cwd, "0b1c2d3e")))
        .isEqualTo(layout.sessionNotes(cwd, "0b1c2d3e"));
  }

  @Test
  void sessionIdsThatCouldLeaveTheFolderAreRefused() {
    assertThatThrownBy(() -> ClaudeLayout.checkSessionId("../../etc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith(": ../../etc");
    assertThatThrownBy(() -> ClaudeLayout.checkSessionId("a/b"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ClaudeLayout.checkSessionId(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(ClaudeLayout.checkSessionId("5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9")).isNotEmpty();
  }
}
