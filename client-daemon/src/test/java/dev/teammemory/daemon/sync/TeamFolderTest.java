package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.files.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TeamFolderTest {

  @TempDir Path temporary;

  private Path team() throws IOException {
    return Files.createDirectories(temporary.resolve("memory/team"));
  }

  @Test
  void scanReportsLinksAndLargeFilesAsSkippedAndIgnoresTemporaryFiles() throws IOException {
    Path team = team();
    Files.writeString(team.resolve("MEMORY.md"), "# Team memory\n");
    Files.createDirectories(team.resolve("testing"));
    Files.writeString(team.resolve("testing/no-mocks.md"), "no mocks");
    Files.write(team.resolve("big.md"), new byte[250_001]);
    Files.createSymbolicLink(team.resolve("link.md"), team.resolve("MEMORY.md"));
    Files.writeString(team.resolve(AtomicFiles.TEMPORARY_PREFIX + "x.tmp"), "half");

    LocalSnapshot snapshot = new TeamFolder(team).scan();

    assertThat(snapshot.files()).containsOnlyKeys("MEMORY.md", "testing/no-mocks.md");
    assertThat(snapshot.files().get("MEMORY.md").checksum())
        .isEqualTo("sha256:2393b496b31a8d584745ed4fc85957f4c3055a36169db110deefeccc43b46cba");
    assertThat(snapshot.skipped()).containsOnlyKeys("big.md", "link.md");
    assertThat(snapshot.skipped().get("big.md").inWords())
        .isEqualTo("too large (250,001 bytes; the limit is 250,000)");
    assertThat(snapshot.skipped().get("link.md").reason()).isEqualTo(SkipReason.SYMLINK);
  }

  @Test
  void aLookAtNamedFilesSeesThemAsTheScanDoesAndKeepsTheContentOfChangedOnes() throws IOException {
    Path team = team();
    Files.writeString(team.resolve("MEMORY.md"), "# Team memory\n");
    Files.writeString(team.resolve("same.md"), "unchanged");
    Files.write(team.resolve("big.md"), new byte[250_001]);
    Files.createSymbolicLink(team.resolve("link.md"), team.resolve("MEMORY.md"));
    Files.writeString(team.resolve("not-named.md"), "not looked at");
    TeamFolder folder = new TeamFolder(team);
    String unchanged = dev.teammemory.protocol.Checksums.ofContent("unchanged");

    LocalSnapshot look =
        folder.look(
            java.util.Set.of("MEMORY.md", "same.md", "big.md", "link.md", "gone.md"),
            (key, checksum) -> !checksum.equals(unchanged));

    assertThat(look.files()).containsOnlyKeys("MEMORY.md", "same.md");
    assertThat(look.files())
        .isEqualTo(
            folder.scan().files().entrySet().stream()
                .filter(file -> look.files().containsKey(file.getKey()))
                .collect(
                    java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    assertThat(look.contents()).containsExactly(Map.entry("MEMORY.md", "# Team memory\n"));
    assertThat(look.skipped()).containsOnlyKeys("big.md", "link.md");
    assertThat(look.skipped().get("link.md").reason()).isEqualTo(SkipReason.SYMLINK);
  }

  @Test
  void theWatchersPathsAreKeysOnlyWhileEachIsAFileThere() throws IOException {
    Path team = team();
    Files.createDirectories(team.resolve("topic"));
    Files.writeString(team.resolve("topic/a.md"), "a");
    TeamFolder folder = new TeamFolder(team);
    Path root = folder.root();

    assertThat(folder.keysOf(java.util.Set.of(root.resolve("topic/a.md"))))
        .contains(java.util.Set.of("topic/a.md"));
    assertThat(folder.keysOf(java.util.Set.of(root.resolve("topic/a.md"), root.resolve("gone.md"))))
        .isEmpty();
    assertThat(folder.keysOf(java.util.Set.of(root.resolve("topic")))).isEmpty();
    assertThat(folder.keysOf(java.util.Set.of(root))).isEmpty();
    assertThat(folder.keysOf(java.util.Set.of(temporary.resolve("elsewhere.md")))).isEmpty();
  }

  @Test
  void keysThatClimbOutOrHideSeparatorsAreRefused() throws IOException {
    TeamFolder folder = new TeamFolder(team());
    for (String key :
        new String[] {
          "../escape.md", "a/../../x", "%2e%2e/x", "/etc/passwd", "a\\b", "ok/./x", "x\u0000y"
        }) {
      assertThat(folder.refusal(key)).as(key).isPresent();
      assertThat(folder.write(key, "payload")).as(key).isPresent();
    }
    assertThat(Files.list(temporary).map(p -> p.getFileName().toString()))
        .containsExactly("memory");
  }

  @Test
  void aFolderLinkPointingOutsideIsRefusedAndNothingIsWrittenThere() throws IOException {
    Path team = team();
    Path outside = Files.createDirectories(temporary.resolve("outside"));
    Files.createSymbolicLink(team.resolve("link"), outside);
    TeamFolder folder = new TeamFolder(team);

    assertThat(folder.write("link/inside.md", "payload"))
        .contains("a folder on its path is a symbolic link out of the team folder");
    assertThat(outside).isEmptyDirectory();
  }

  @Test
  void danglingLinksAndLinkLoopsAreRefused() throws IOException {
    Path team = team();
    Files.createSymbolicLink(team.resolve("dangling"), temporary.resolve("nowhere"));
    Files.createSymbolicLink(team.resolve("loop-a"), team.resolve("loop-b"));
    Files.createSymbolicLink(team.resolve("loop-b"), team.resolve("loop-a"));
    TeamFolder folder = new TeamFolder(team);

    assertThat(folder.refusal("dangling/x.md"))
        .contains("a folder on its path is a dangling symbolic link");
    assertThat(folder.refusal("loop-a/x.md"))
        .contains("a folder on its path is a symbolic link loop");
    assertThat(temporary.resolve("nowhere")).doesNotExist();
  }

  @Test
  void aFileLinkIsNeverWrittenThrough() throws IOException {
    Path team = team();
    Path outside = Files.writeString(temporary.resolve("outside.md"), "mine");
    Files.createSymbolicLink(team.resolve("notes.md"), outside);

    assertThat(new TeamFolder(team).write("notes.md", "theirs"))
        .contains("the local file is a symbolic link");
    assertThat(outside).hasContent("mine");
  }

  @Test
  void aLinkThatStaysInsideTheFolderIsFollowed() throws IOException {
    Path team = team();
    Files.createDirectories(team.resolve("real"));
    Files.createSymbolicLink(team.resolve("alias"), team.resolve("real"));

    assertThat(new TeamFolder(team).write("alias/x.md", "content")).isEmpty();
    assertThat(team.resolve("real/x.md")).hasContent("content");
  }

  @Test
  void writesCreateFoldersAndDeleteOnlyRemovesUnchangedFiles() throws IOException {
    Path team = team();
    TeamFolder folder = new TeamFolder(team);
    assertThat(folder.write("a/b/c.md", "one")).isEmpty();
    assertThat(team.resolve("a/b/c.md")).hasContent("one");

    assertThat(
            folder.deleteIfUnchanged(
                "a/b/c.md", dev.teammemory.protocol.Checksums.ofContent("other")))
        .isFalse();
    assertThat(team.resolve("a/b/c.md")).exists();
    assertThat(
            folder.deleteIfUnchanged(
                "a/b/c.md", dev.teammemory.protocol.Checksums.ofContent("one")))
        .isTrue();
    assertThat(team.resolve("a/b/c.md")).doesNotExist();
  }
}
