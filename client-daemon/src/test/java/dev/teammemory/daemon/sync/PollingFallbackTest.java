package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.testing.Conditions;
import dev.teammemory.daemon.testing.ScriptedServer;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.secrets.SecretScanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against a server without the change feed, a teammate's change still arrives within seconds. */
class PollingFallbackTest {

  @TempDir Path temporary;

  private final AtomicReference<String> snapshot = new AtomicReference<>();

  private MockResponse answer(RecordedRequest request) {
    String target = request.getTarget();
    if (target.contains("/changes")) {
      return ScriptedServer.json(404, "{}");
    }
    String body = snapshot.get();
    if (body == null) {
      return ScriptedServer.json(
          404, "{\"error\":{\"message\":\"none\",\"details\":{\"error_code\":\"not_found\"}}}");
    }
    String checksum = body.substring(body.indexOf("sha256:"), body.indexOf("sha256:") + 71);
    String ifNoneMatch = request.getHeaders().get("If-None-Match");
    if (ifNoneMatch != null && ifNoneMatch.contains(checksum)) {
      return new MockResponse.Builder().code(304).build();
    }
    return new MockResponse.Builder()
        .code(200)
        .setHeader("Content-Type", "application/json")
        .setHeader("ETag", "\"" + checksum + "\"")
        .body(body)
        .build();
  }

  @Test
  void withoutAChangeFeedTheDaemonPollsWithIfNoneMatch() throws Exception {
    Path team = Files.createDirectories(temporary.resolve("team"));
    try (ScriptedServer server = new ScriptedServer(this::answer);
        TeamMemoryClient client = new TeamMemoryClient(server.url(), () -> "token", "tmem-test");
        SyncEngine engine =
            SyncEngine.open(
                new SyncTarget(server.url(), "acme/widgets", team, temporary.resolve("state")),
                client,
                () -> Optional.of("token"),
                new SecretGuard(SecretScanner.defaultRules()),
                SyncSettings.defaults().withPollInterval(Duration.ofMillis(200)))) {
      engine.start();
      Conditions.await(
          "the pull at start", Duration.ofSeconds(20), () -> engine.state().lastPull().isPresent());

      snapshot.set(ScriptedServer.repositoryBody(1, Map.of("news.md", "a teammate's note\n")));

      Conditions.await(
          "the teammate's note arrives",
          Duration.ofSeconds(20),
          () ->
              Conditions.quietly(
                  () -> Files.readString(team.resolve("news.md")).equals("a teammate's note\n")));
      assertThat(server.requests())
          .anyMatch(request -> request.getHeaders().get("If-None-Match") != null);
    }
  }
}
