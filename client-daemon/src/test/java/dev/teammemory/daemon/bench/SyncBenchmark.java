package dev.teammemory.daemon.bench;

import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.sync.SyncEngine;
import dev.teammemory.daemon.sync.SyncSettings;
import dev.teammemory.daemon.sync.SyncTarget;
import dev.teammemory.daemon.testing.Conditions;
import dev.teammemory.daemon.testing.RecordingProxy;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.secrets.SecretScanner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures the daemon's team sync against the real server and prints the figures recorded in {@code
 * docs/benchmarks.md} ("Daemon sync"):
 *
 * <ol>
 *   <li>edit-to-visible latency on a second daemon (p50, p95) over N edits, with the real 2 s quiet
 *       period;
 *   <li>bytes on the wire for a one-file edit in a 1,000-file folder, against the file's size;
 *   <li>idle RSS and CPU of a real {@code tmem daemon} process serving that folder.
 * </ol>
 *
 * Run (after {@code ./mvnw -pl server package -DskipTests} and {@code ./mvnw -pl client-daemon
 * test-compile}):
 *
 * <pre>
 * cd client-daemon && ../mvnw -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt \
 *   -Dmdep.includeScope=test && java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *   -Dtmem.server.jar=../server/target/quarkus-app/quarkus-run.jar \
 *   dev.teammemory.daemon.bench.SyncBenchmark [edits (100)] [idle seconds (60)]
 * </pre>
 */
public final class SyncBenchmark {

  private static final String REPO = "bench/team-memory";
  private static final String SMALL_REPO = "bench/small";

  /** JVM flags for a small resident daemon (what the launcher and service units should pass). */
  static final List<String> SMALL_JVM =
      List.of(
          "-XX:+UseSerialGC",
          "-Xms16m",
          "-XX:MinHeapFreeRatio=10",
          "-XX:MaxHeapFreeRatio=30",
          "-XX:TieredStopAtLevel=1");

  private SyncBenchmark() {}

  public static void main(String[] arguments) throws Exception {
    int edits = arguments.length > 0 ? Integer.parseInt(arguments[0]) : 100;
    int idleSeconds = arguments.length > 1 ? Integer.parseInt(arguments[1]) : 60;
    if (System.getProperty("tmem.server.jar") == null) {
      System.setProperty("tmem.server.jar", "../server/target/quarkus-app/quarkus-run.jar");
    }
    Path root = Files.createTempDirectory("tmem-bench-");
    System.out.println(
        "machine: "
            + Runtime.getRuntime().availableProcessors()
            + " cores, "
            + System.getProperty("java.version"));
    try (ServerProcess server = ServerProcess.start(root.resolve("server"));
        RecordingProxy proxy = RecordingProxy.start(server.url())) {
      Path teamA = Files.createDirectories(root.resolve("a/team"));
      Path teamB = Files.createDirectories(root.resolve("b/team"));
      for (int i = 0; i < 1000; i++) {
        Path file = teamA.resolve("topic-" + (i % 20)).resolve("note-" + i + ".md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, ("- a remembered fact number " + i + "\n").repeat(30));
      }
      SecretGuard guard = new SecretGuard(SecretScanner.defaultRules());
      try (TeamMemoryClient clientA =
              new TeamMemoryClient(proxy.url(), () -> ServerProcess.ALICE, "tmem-bench");
          TeamMemoryClient clientB =
              new TeamMemoryClient(server.url(), () -> ServerProcess.BOB, "tmem-bench");
          SyncEngine a =
              engine(
                  teamA,
                  root.resolve("a/state"),
                  proxy.url(),
                  clientA,
                  ServerProcess.ALICE,
                  guard);
          SyncEngine b =
              engine(
                  teamB,
                  root.resolve("b/state"),
                  server.url(),
                  clientB,
                  ServerProcess.BOB,
                  guard)) {
        a.start();
        b.start();
        Conditions.await(
            "b has all 1,000 files",
            Duration.ofMinutes(3),
            () -> b.state().syncedChecksums().size() == 1000);
        Conditions.await(
            "a is idle", Duration.ofMinutes(1), () -> a.state().pendingKeys().isEmpty());

        wireBytes(teamA, teamB, proxy);
        fetchCost(clientB);
        latency(teamA, teamB, Math.max(10, edits / 4), "1,000-file repository");
      }
      Path smallA = Files.createDirectories(root.resolve("e/team"));
      Path smallB = Files.createDirectories(root.resolve("f/team"));
      for (int i = 0; i < 10; i++) {
        Files.writeString(
            smallA.resolve("note-" + i + ".md"),
            ("- a remembered fact number " + i + "\n").repeat(30));
      }
      try (TeamMemoryClient clientE =
              new TeamMemoryClient(server.url(), () -> ServerProcess.ALICE, "tmem-bench");
          TeamMemoryClient clientF =
              new TeamMemoryClient(server.url(), () -> ServerProcess.BOB, "tmem-bench");
          SyncEngine e =
              SyncEngine.open(
                  new SyncTarget(server.url(), SMALL_REPO, smallA, root.resolve("e/state")),
                  clientE,
                  () -> Optional.of(ServerProcess.ALICE),
                  guard,
                  SyncSettings.defaults());
          SyncEngine f =
              SyncEngine.open(
                  new SyncTarget(server.url(), SMALL_REPO, smallB, root.resolve("f/state")),
                  clientF,
                  () -> Optional.of(ServerProcess.BOB),
                  guard,
                  SyncSettings.defaults())) {
        e.start();
        f.start();
        Conditions.await(
            "f has the 10 files",
            Duration.ofMinutes(1),
            () -> f.state().syncedChecksums().size() == 10);
        latency(smallA, smallB, edits, "10-file repository");
      }
      idle(root, server.url(), idleSeconds, List.of());
      idle(root, server.url(), idleSeconds, SMALL_JVM);
    }
  }

  private static SyncEngine engine(
      Path team, Path state, String url, TeamMemoryClient client, String token, SecretGuard guard)
      throws IOException {
    return SyncEngine.open(
        new SyncTarget(url, REPO, team, state),
        client,
        () -> Optional.of(token),
        guard,
        SyncSettings.defaults());
  }

  private static void wireBytes(Path teamA, Path teamB, RecordingProxy proxy) throws IOException {
    // Let a's own feed request settle first, so only the edit's traffic is counted.
    LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(3));
    proxy.clear();
    Path file = teamA.resolve("topic-7/note-7.md");
    String content = Files.readString(file) + "- one more fact\n";
    Files.writeString(file, content);
    Conditions.await(
        "b sees the edit",
        Duration.ofSeconds(30),
        () -> SyncFixture.hasContent(teamB.resolve("topic-7/note-7.md"), content));
    LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(2));
    long size = content.getBytes(StandardCharsets.UTF_8).length;
    long push = 0;
    long total = 0;
    for (RecordingProxy.Exchange exchange : proxy.exchanges()) {
      long bytes = exchange.requestBytes() + exchange.responseBytes();
      total += bytes;
      if (exchange.method().equals("PUT")) {
        push += bytes;
      }
    }
    System.out.printf(
        "one-file edit in a 1,000-file folder: file %,d bytes; push (PUT request + response) %,d bytes on the wire (file + %,d)%n",
        size, push, push - size);
    System.out.printf(
        "  all of the editing daemon's traffic for the edit, including its own change-feed wake-up: %,d bytes in %d request(s)%n",
        total, proxy.exchanges().size());
  }

  /** What a receiving daemon pays per pull: the protocol has no per-key GET, so a full one. */
  private static void fetchCost(TeamMemoryClient client) {
    for (int i = 0; i < 5; i++) {
      client.fetch(REPO, Optional.empty());
    }
    long start = System.nanoTime();
    for (int i = 0; i < 10; i++) {
      client.fetch(REPO, Optional.empty());
    }
    long fetch = (System.nanoTime() - start) / 10;
    start = System.nanoTime();
    for (int i = 0; i < 10; i++) {
      client.fetchHashes(REPO);
    }
    long hashes = (System.nanoTime() - start) / 10;
    System.out.printf(
        "  a pull on the receiving daemon is a full GET: %,d ms for 1,000 entries (the hashes view: %,d ms)%n",
        TimeUnit.NANOSECONDS.toMillis(fetch), TimeUnit.NANOSECONDS.toMillis(hashes));
  }

  private static void latency(Path teamA, Path teamB, int edits, String what) throws IOException {
    List<Long> millis = new ArrayList<>();
    for (int i = 1; i <= edits; i++) {
      String content = "# latency probe\nedit " + i + "\n";
      long start = System.nanoTime();
      Files.writeString(teamA.resolve("latency.md"), content);
      Conditions.await(
          "edit " + i + " is visible",
          Duration.ofSeconds(60),
          () -> SyncFixture.hasContent(teamB.resolve("latency.md"), content));
      millis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }
    Collections.sort(millis);
    System.out.printf(
        "edit-to-visible on the other daemon, %s, over %d edits (2 s quiet period): p50 %,d ms, p95 %,d ms, min %,d ms, max %,d ms%n",
        what,
        edits,
        percentile(millis, 50),
        percentile(millis, 95),
        millis.get(0),
        millis.get(millis.size() - 1));
  }

  private static long percentile(List<Long> sorted, int percent) {
    int index = (int) Math.ceil(percent / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, index));
  }

  /** A real `tmem daemon` process on a 1,000-file folder: RSS and CPU while nothing changes. */
  private static void idle(Path root, String url, int idleSeconds, List<String> jvmFlags)
      throws Exception {
    String name = jvmFlags.isEmpty() ? "c" : "d";
    Path team = Files.createDirectories(root.resolve(name + "/team"));
    for (int i = 0; i < 1000; i++) {
      Path file = team.resolve("topic-" + (i % 20)).resolve("note-" + i + ".md");
      Files.createDirectories(file.getParent());
      Files.writeString(file, ("- a remembered fact number " + i + "\n").repeat(30));
    }
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(jvmFlags);
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            "dev.teammemory.daemon.cli.Tmem",
            "daemon",
            "--team-dir",
            team.toString(),
            "--repo",
            REPO));
    Path log = root.resolve(name + "-idle-daemon.log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("TMEM_SERVER_URL", url);
    builder.environment().put("TMEM_TOKEN", ServerProcess.ALICE);
    builder.environment().put("XDG_STATE_HOME", root.resolve(name + "/state").toString());
    Process daemon = builder.start();
    try {
      Conditions.await(
          "the idle daemon finished its start",
          Duration.ofMinutes(2),
          () -> Conditions.quietly(() -> Files.readString(log).contains("serving")));
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(10));
      Duration cpuBefore = daemon.info().totalCpuDuration().orElse(Duration.ZERO);
      long wallBefore = System.nanoTime();
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(idleSeconds));
      Duration cpu = daemon.info().totalCpuDuration().orElse(Duration.ZERO).minus(cpuBefore);
      long wall = System.nanoTime() - wallBefore;
      String status = Files.readString(Path.of("/proc/" + daemon.pid() + "/status"));
      String rss =
          status
              .lines()
              .filter(line -> line.startsWith("VmRSS"))
              .findFirst()
              .orElse("VmRSS: unknown");
      System.out.printf(
          "idle daemon (1,000-file folder, %s): %s, CPU %,d ms over %d s (%.2f%% of one core)%n",
          jvmFlags.isEmpty() ? "default JVM flags" : String.join(" ", jvmFlags),
          rss.replaceAll("\\s+", " "),
          cpu.toMillis(),
          idleSeconds,
          100.0 * cpu.toNanos() / wall);
    } finally {
      daemon.destroy();
      daemon.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
