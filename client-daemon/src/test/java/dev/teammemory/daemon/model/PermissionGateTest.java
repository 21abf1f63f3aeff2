package dev.teammemory.daemon.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PermissionGateTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path NOTES =
      Path.of("/home/dev/.claude/projects/-home-dev-shop/s1/session-memory/summary.md");
  private final PermissionGate gate = PermissionGate.onlyEditing(NOTES);

  private static ObjectNode edit(String filePath) {
    ObjectNode input = JSON.createObjectNode();
    input.put("file_path", filePath).put("old_string", "a").put("new_string", "b");
    return input;
  }

  @Test
  void allowsEditOnTheNotesFile() {
    assertThat(gate.check("Edit", edit(NOTES.toString())))
        .isEqualTo(new Permission.Allow(edit(NOTES.toString())));
  }

  @Test
  void allowsTheSameFileSpelledWithDotSegments() {
    String spelled =
        "/home/dev/.claude/projects/-home-dev-shop/s1/./session-memory/../session-memory/summary.md";
    assertThat(gate.check("Edit", edit(spelled))).isInstanceOf(Permission.Allow.class);
  }

  @Test
  void deniesAnyOtherFileIncludingEscapesByDotDot() {
    String denial = "only Edit on " + NOTES + " is allowed";
    assertThat(gate.check("Edit", edit("/home/dev/.ssh/config")))
        .isEqualTo(new Permission.Deny(denial));
    assertThat(gate.check("Edit", edit(NOTES + "/../../../../../../.bashrc")))
        .isEqualTo(new Permission.Deny(denial));
    assertThat(gate.check("Edit", edit("summary.md"))).isEqualTo(new Permission.Deny(denial));
  }

  @Test
  void deniesOtherToolsEvenOnTheNotesFile() {
    assertThat(gate.check("Write", edit(NOTES.toString()))).isInstanceOf(Permission.Deny.class);
    assertThat(gate.check("Bash", JSON.createObjectNode().put("command", "cat " + NOTES)))
        .isInstanceOf(Permission.Deny.class);
  }

  @Test
  void deniesInputWithoutAStringPath() {
    assertThat(gate.check("Edit", JSON.createObjectNode())).isInstanceOf(Permission.Deny.class);
    assertThat(gate.check("Edit", JSON.createObjectNode().put("file_path", 42)))
        .isInstanceOf(Permission.Deny.class);
  }
}
