package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.testing.ScriptedServer;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.secrets.SecretScanner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a push reacts to a server that refuses part or all of it. */
class PushRejectionTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path temporary;

  private Path team;

  private SyncReport syncOnce(
      Function<RecordedRequest, MockResponse> answer, ScriptedServer[] holder) throws Exception {
    ScriptedServer server = new ScriptedServer(answer);
    holder[0] = server;
    try (TeamMemoryClient client = new TeamMemoryClient(server.url(), () -> "token", "tmem-test");
        SyncEngine engine =
            SyncEngine.open(
                new SyncTarget(server.url(), "acme/widgets", team, temporary.resolve("state")),
                client,
                () -> Optional.of("token"),
                new SecretGuard(SecretScanner.defaultRules()),
                SyncSettings.defaults())) {
      return engine.syncOnce();
    }
  }

  private void files(String... keys) throws IOException {
    team = Files.createDirectories(temporary.resolve("team"));
    for (String key : keys) {
      Files.writeString(team.resolve(key), "content of " + key);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> entriesOf(RecordedRequest put) throws IOException {
    Map<String, Object> body =
        JSON.readValue(put.getBody().string(StandardCharsets.UTF_8), Map.class);
    return (Map<String, String>) body.get("entries");
  }

  private static MockResponse accepted(RecordedRequest put) {
    try {
      Map<String, String> checksums = new TreeMap<>();
      entriesOf(put).forEach((key, value) -> checksums.put(key, Checksums.ofContent(value)));
      String checksum = Checksums.ofRepository(checksums);
      return new MockResponse.Builder()
          .code(200)
          .setHeader("Content-Type", "application/json")
          .setHeader("ETag", "\"" + checksum + "\"")
          .body(
              JSON.writeValueAsString(
                  Map.of(
                      "version",
                      1,
                      "checksum",
                      checksum,
                      "lastModified",
                      "2026-11-21T10:15:30.123Z",
                      "entryChecksums",
                      checksums)))
          .build();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final MockResponse EMPTY =
      ScriptedServer.json(
          404,
          "{\"error\":{\"message\":\"no entries\",\"details\":{\"error_code\":\"not_found\"}}}");

  @Test
  void aSecretTheServerFindsDropsThatKeyMarksItSkippedAndSendsTheRest() throws Exception {
    files("a.md", "b.md");
    AtomicInteger puts = new AtomicInteger();
    ScriptedServer[] server = new ScriptedServer[1];
    SyncReport report =
        syncOnce(
            request -> {
              if (!request.getMethod().equals("PUT")) {
                return EMPTY;
              }
              if (puts.incrementAndGet() == 1) {
                return ScriptedServer.json(
                    422,
                    "{\"error\":{\"message\":\"secret detected\",\"details\":{\"error_code\":\"secret_detected\","
                        + "\"findings\":[{\"key\":\"b.md\",\"ruleId\":\"newer-rule\",\"line\":1}]}}}");
              }
              return accepted(request);
            },
            server);

    assertThat(report.push()).isEqualTo(new PushOutcome.Pushed(1, 1, java.util.List.of()));
    assertThat(entriesOf(server[0].puts().get(1))).containsOnlyKeys("a.md");
    SyncState.Skip skip = report.state().skipped().get("b.md");
    assertThat(skip.reason()).isEqualTo(SkipReason.SECRET);
    assertThat(skip.inWords())
        .isEqualTo("contains a secret (the server's scanner: rule newer-rule)");
    server[0].close();
  }

  @Test
  void theEntryCapIsLearnedFromA413AndTheFilesOverItAreNamed() throws Exception {
    files("a.md", "b.md", "c.md");
    AtomicInteger puts = new AtomicInteger();
    ScriptedServer[] server = new ScriptedServer[1];
    SyncReport report =
        syncOnce(
            request -> {
              if (!request.getMethod().equals("PUT")) {
                return EMPTY;
              }
              if (puts.incrementAndGet() == 1) {
                return ScriptedServer.json(
                    413,
                    "{\"error\":{\"details\":{\"error_code\":\"team_memory_too_many_entries\",\"max_entries\":2,\"received_entries\":3}}}");
              }
              return accepted(request);
            },
            server);

    assertThat(report.state().maxEntries()).isEqualTo(2);
    assertThat(entriesOf(server[0].puts().get(1))).containsOnlyKeys("a.md", "b.md");
    assertThat(report.state().skipped().get("c.md").inWords())
        .isEqualTo("over the server's entry cap (the server holds at most 2 entries)");
    server[0].close();
  }

  @Test
  void a404OnPullIsAnEmptyRepositoryButA404OnPushStopsPushingAndSaysWhy() throws Exception {
    files("a.md");
    ScriptedServer[] server = new ScriptedServer[1];
    SyncReport report = syncOnce(request -> EMPTY, server);

    assertThat(report.pull()).isInstanceOf(PullOutcome.Pulled.class);
    assertThat(report.push()).isInstanceOf(PushOutcome.NoAccess.class);
    assertThat(report.state().blocked())
        .contains(
            "the server says acme/widgets does not exist or you cannot see it (404 on push): check the repository"
                + " name (`tmem add --repo owner/name`) and your access, then edit a file or run `tmem sync`");
    server[0].close();
  }

  @Test
  void a401StopsPushingAndAsksForALogin() throws Exception {
    files("a.md");
    ScriptedServer[] server = new ScriptedServer[1];
    SyncReport report =
        syncOnce(
            request ->
                ScriptedServer.json(
                    401,
                    "{\"error\":{\"message\":\"bad token\",\"details\":{\"error_code\":\"unauthorized\"}}}"),
            server);

    assertThat(report.succeeded()).isFalse();
    assertThat(report.state().blocked())
        .contains(
            "the server rejected the token (401): run `tmem login` or set TMEM_TOKEN to a valid token");
    server[0].close();
  }

  @Test
  void aFileTheLocalScannerFlagsIsNeverSent() throws Exception {
    files("a.md");
    Files.writeString(
        team.resolve("secret.md"),
        "GITHUB_TOKEN=ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8" + "\n");
    ScriptedServer[] server = new ScriptedServer[1];
    SyncReport report =
        syncOnce(request -> request.getMethod().equals("PUT") ? accepted(request) : EMPTY, server);

    assertThat(server[0].puts()).hasSize(1);
    assertThat(entriesOf(server[0].puts().get(0))).containsOnlyKeys("a.md");
    assertThat(server[0].puts().get(0).getBody().string(StandardCharsets.UTF_8))
        .doesNotContain("ghp_");
    assertThat(report.state().skipped().get("secret.md").inWords())
        .isEqualTo("contains a secret (rule github-pat)");
    server[0].close();
  }
}
