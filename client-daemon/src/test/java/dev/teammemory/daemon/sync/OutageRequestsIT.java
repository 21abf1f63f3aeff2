package dev.teammemory.daemon.sync;

import static dev.teammemory.daemon.testing.Conditions.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.testing.RecordingProxy;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * No request storms: a daemon starting with a file to push against a server that is down, not Team
 * Memory at all, or answering 404, 429 or 5xx, counted at a recording fake on port 0. The daemon
 * backs off (the test's backoff: 100 ms doubling to 2 s) and honours {@code retry-after}; the issue
 * saw 49 requests a second. Each case runs until the fake saw {@link #ENOUGH} requests or {@link
 * #WINDOW} passed; reaching {@link #ENOUGH} sooner than the backoff allows fails.
 */
class OutageRequestsIT {

  private static final int ENOUGH = 25;
  private static final Duration WINDOW = Duration.ofSeconds(10);
  private static final Pattern CLASS_NAME = Pattern.compile("[A-Z][a-z]+(Exception|Error)\\b");

  @TempDir Path root;

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "down,0,,1500,cannot reach",
    "not team memory,200,,1500,cannot reach",
    "404 everywhere,404,,1500,does not answer as a Team Memory server",
    "429 retry-after 3,429,3,3000,busy",
    "503 retry-after 2,503,2,2000,answered 503",
    "500,500,,1500,answered 500"
  })
  void requestsDuringAnOutageStayBounded(
      String what, int status, String retryAfter, long fastestMillis, String words)
      throws Exception {
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    try (RecordingProxy fake = RecordingProxy.start("http://127.0.0.1:" + deadPort);
        SyncFixture fixture = new SyncFixture(root)) {
      if (status != 0) {
        fake.answerAll(status, retryAfter == null ? Map.of() : Map.of("Retry-After", retryAfter));
      }
      Files.createDirectories(fixture.teamDir("alice"));
      Files.writeString(fixture.teamDir("alice").resolve("note.md"), "a note\n");
      long started = System.nanoTime();
      SyncEngine alice = fixture.daemon("alice", "acme/outage", fake.url(), ServerProcess.ALICE);

      await(
          what + ": " + ENOUGH + " requests or " + WINDOW.toSeconds() + " s",
          WINDOW.plusSeconds(30),
          () ->
              fake.exchanges().size() >= ENOUGH || System.nanoTime() - started >= WINDOW.toNanos());
      long millis = (System.nanoTime() - started) / 1_000_000;
      int requests = fake.exchanges().size();
      System.out.printf(
          "outage %-18s %3d requests in %5d ms (%.1f a second)%n",
          what, requests, millis, requests * 1000.0 / Math.max(millis, 1));

      // The backoff makes the first ENOUGH requests take at least this long; a storm takes less.
      assertThat(requests >= ENOUGH ? millis : Long.MAX_VALUE)
          .as(what + ": " + requests + " requests in " + millis + " ms")
          .isGreaterThanOrEqualTo(fastestMillis);
      await(
          what + ": the daemon says what is wrong in words",
          Duration.ofSeconds(30),
          () -> said(alice).filter(text -> text.contains(words)).isPresent());
      assertThat(said(alice).orElseThrow()).doesNotContainPattern(CLASS_NAME);
      assertThat(fixture.teamDir("alice").resolve("note.md")).hasContent("a note\n");
    }
  }

  private static Optional<String> said(SyncEngine engine) {
    SyncState state = engine.state();
    return state.blocked().or(state::error).filter(Predicate.not(String::isBlank));
  }
}
