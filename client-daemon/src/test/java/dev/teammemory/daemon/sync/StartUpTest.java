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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A daemon that starts while the server is down: it waits for its first pull, whatever happens. */
class StartUpTest {

  @TempDir Path temporary;

  private final AtomicBoolean up = new AtomicBoolean();
  private final AtomicInteger pushesBeforeAPull = new AtomicInteger();
  private final AtomicBoolean pulled = new AtomicBoolean();
  private final String repository =
      ScriptedServer.repositoryBody(3, Map.of("theirs.md", "a teammate's note\n"));

  private MockResponse answer(RecordedRequest request) {
    boolean fullGet =
        request.getMethod().equals("GET")
            && request.getTarget().startsWith("/api/claude_code/team_memory?")
            && !request.getTarget().contains("view=");
    if (request.getMethod().equals("PUT") && !pulled.get()) {
      pushesBeforeAPull.incrementAndGet();
    }
    if (!up.get()) {
      return ScriptedServer.json(503, "{}");
    }
    if (fullGet) {
      pulled.set(true);
      return ScriptedServer.json(200, repository);
    }
    // No store API, no change feed: the team_memory transport, polling.
    return ScriptedServer.json(
        404, "{\"error\":{\"message\":\"none\",\"details\":{\"error_code\":\"not_found\"}}}");
  }

  @Test
  void aFileChangedWhileTheServerIsDownNeitherCancelsTheStartNorGoesOutBeforeThePull()
      throws Exception {
    Path team = Files.createDirectories(temporary.resolve("team"));
    try (ScriptedServer server = new ScriptedServer(this::answer);
        TeamMemoryClient client = new TeamMemoryClient(server.url(), () -> "token", "tmem-test");
        SyncEngine engine =
            SyncEngine.open(
                new SyncTarget(server.url(), "acme/widgets", team, temporary.resolve("state")),
                client,
                () -> Optional.of("token"),
                new SecretGuard(SecretScanner.defaultRules()),
                SyncSettings.defaults()
                    .withQuietPeriod(Duration.ofMillis(100))
                    .withBackoff(Duration.ofMillis(200), Duration.ofMillis(400))
                    .withPollInterval(Duration.ofMillis(200)))) {
      engine.start();
      Conditions.await(
          "the start-up to fail once",
          Duration.ofSeconds(20),
          () -> engine.state().error().isPresent());

      // The agent writes a memory while the server is down: a file event, hence a push attempt.
      Files.writeString(team.resolve("mine.md"), "written during the outage\n");
      // Three more start-up retries (200 ms apart at least) outlast the 100 ms quiet period, so
      // the file event has been handled while the server is still down.
      int asked = server.requests().size();
      Conditions.await(
          "three more start-up retries",
          Duration.ofSeconds(20),
          () -> server.requests().size() >= asked + 3);
      up.set(true);

      Conditions.await(
          "the teammate's note arrives once the server is back",
          Duration.ofSeconds(20),
          () ->
              Conditions.quietly(
                  () -> Files.readString(team.resolve("theirs.md")).equals("a teammate's note\n")));
      assertThat(pushesBeforeAPull).hasValue(0);
      assertThat(team.resolve("mine.md")).hasContent("written during the outage\n");
    }
  }
}
