package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.cli.SyncCommand;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.testing.ScriptedServer;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.secrets.SecretScanner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server that sends keys meant to escape the team folder: nothing lands outside it. */
class HostileServerTest {

  @TempDir Path temporary;

  @Test
  void traversalAndLinkKeysFromTheServerAreRefusedAndReported() throws Exception {
    Path team = Files.createDirectories(temporary.resolve("home/memory/team"));
    Path outside = Files.createDirectories(temporary.resolve("outside"));
    Files.createSymbolicLink(team.resolve("link"), outside);
    Files.createSymbolicLink(team.resolve("dangling"), temporary.resolve("nowhere"));

    Map<String, String> entries = new LinkedHashMap<>();
    entries.put("../escape.md", "escaped");
    entries.put("a/../../x", "escaped");
    entries.put("%2e%2e/x", "escaped");
    entries.put("link/inside.md", "escaped");
    entries.put("dangling/x.md", "escaped");
    entries.put("ok/fine.md", "fine");
    String body = ScriptedServer.repositoryBody(3, entries);

    try (ScriptedServer server =
            new ScriptedServer(
                request ->
                    request.getMethod().equals("GET")
                        ? ScriptedServer.json(200, body)
                        : ScriptedServer.json(500, "{}"));
        TeamMemoryClient client = new TeamMemoryClient(server.url(), () -> "token", "tmem-test")) {
      SyncTarget target =
          new SyncTarget(server.url(), "acme/widgets", team, temporary.resolve("state"));
      SyncReport report;
      try (SyncEngine engine =
          SyncEngine.open(
              target,
              client,
              () -> Optional.of("token"),
              new SecretGuard(SecretScanner.defaultRules()),
              SyncSettings.defaults())) {
        report = engine.syncOnce();
      }

      assertThat(team.resolve("ok/fine.md")).hasContent("fine");
      assertThat(outside).isEmptyDirectory();
      assertThat(temporary.resolve("home/memory/escape.md")).doesNotExist();
      assertThat(temporary.resolve("home/x")).doesNotExist();
      assertThat(temporary.resolve("nowhere")).doesNotExist();
      try (Stream<Path> all = Files.walk(temporary)) {
        assertThat(all.filter(Files::isRegularFile).map(path -> path.getFileName().toString()))
            .noneMatch(
                name -> name.equals("escape.md") || name.equals("x") || name.equals("inside.md"));
      }
      assertThat(report.state().refusedKeys())
          .containsOnlyKeys(
              "../escape.md", "a/../../x", "%2e%2e/x", "link/inside.md", "dangling/x.md");
      assertThat(report.state().refusedKeys().get("link/inside.md"))
          .isEqualTo("a folder on its path is a symbolic link out of the team folder");
      // The links themselves are skipped, never pushed: nothing was sent.
      assertThat(server.puts()).isEmpty();

      StringWriter out = new StringWriter();
      boolean good =
          SyncCommand.print(
              target,
              report,
              new PrintWriter(out, true),
              new PrintWriter(new StringWriter(), true));
      assertThat(good).isFalse();
      assertThat(out.toString())
          .contains(
              "refused from the server: ../escape.md — key has an empty, '.' or '..' path segment")
          .contains(
              "refused from the server: %2e%2e/x — key hides '/', '\\', '..' or NUL behind %-escapes");
    }
  }
}
