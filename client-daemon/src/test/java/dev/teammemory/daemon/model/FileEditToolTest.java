package dev.teammemory.daemon.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileEditToolTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final FileEditTool tool = new FileEditTool();
  @TempDir Path directory;

  private ObjectNode edit(Path file, String oldString, String newString) {
    ObjectNode input = JSON.createObjectNode();
    return input
        .put("file_path", file.toString())
        .put("old_string", oldString)
        .put("new_string", newString);
  }

  @Test
  void replacesAUniqueString() throws IOException {
    Path file = Files.writeString(directory.resolve("a.md"), "one two three");

    assertThat(tool.execute(edit(file, "two", "2")))
        .isEqualTo(AgentTool.Result.ok("The file " + file + " has been updated."));
    assertThat(Files.readString(file)).isEqualTo("one 2 three");
  }

  @Test
  void refusesAnAmbiguousStringUnlessReplaceAll() throws IOException {
    Path file = Files.writeString(directory.resolve("a.md"), "x x x");

    AgentTool.Result ambiguous = tool.execute(edit(file, "x", "y"));
    assertThat(ambiguous.isError()).isTrue();
    assertThat(ambiguous.content()).startsWith("old_string occurs 3 times in ");
    assertThat(Files.readString(file)).isEqualTo("x x x");

    assertThat(tool.execute(edit(file, "x", "y").put("replace_all", true)).isError()).isFalse();
    assertThat(Files.readString(file)).isEqualTo("y y y");
  }

  @Test
  void reportsAMissingStringWithoutShowingTheFile() throws IOException {
    Path file = Files.writeString(directory.resolve("a.md"), "secret content");

    AgentTool.Result result = tool.execute(edit(file, "absent", "y"));

    assertThat(result).isEqualTo(AgentTool.Result.error("old_string was not found in " + file));
    assertThat(result.content()).doesNotContain("secret");
  }

  @Test
  void refusesNoOpsAndMissingFilesAndBadInput() {
    Path missing = directory.resolve("missing.md");
    assertThat(tool.execute(edit(missing, "a", "a")).content())
        .isEqualTo("old_string and new_string are the same; nothing to change");
    assertThat(tool.execute(edit(missing, "a", "b")).content())
        .isEqualTo("file does not exist: " + missing);
    assertThat(tool.execute(JSON.createObjectNode()).isError()).isTrue();
  }

  @Test
  void keepsTheFilesPermissions() throws IOException {
    Path file = Files.writeString(directory.resolve("a.md"), "before");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

    tool.execute(edit(file, "before", "after"));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
  }

  @Test
  void replacesTheFileAtomicallyInsteadOfRewritingItInPlace() throws IOException {
    Path file = Files.writeString(directory.resolve("a.md"), "before");
    // A hard link still names the old inode: an in-place rewrite changes what it reads, an atomic
    // replacement (new file renamed over the name) does not.
    Path oldInode = Files.createLink(directory.resolve("old.md"), file);

    assertThat(tool.execute(edit(file, "before", "after")).isError()).isFalse();

    assertThat(Files.readString(file)).isEqualTo("after");
    assertThat(Files.readString(oldInode)).isEqualTo("before");
    try (var names = Files.list(directory)) {
      assertThat(names.map(name -> name.getFileName().toString()))
          .containsExactlyInAnyOrder("a.md", "old.md");
    }
  }

  @Test
  void editsASymlinkedFileThroughItsLink() throws IOException {
    Path real = Files.writeString(directory.resolve("real.md"), "before");
    Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rw-------"));
    Path link = Files.createSymbolicLink(directory.resolve("link.md"), real.getFileName());

    assertThat(tool.execute(edit(link, "before", "after")).isError()).isFalse();

    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readString(real)).isEqualTo("after");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(real)))
        .isEqualTo("rw-------");
  }
}
