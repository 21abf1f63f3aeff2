package dev.teammemory.daemon.bench;

import dev.teammemory.daemon.sync.DeleteConfirmation;
import dev.teammemory.daemon.sync.SyncEngine;
import dev.teammemory.daemon.testing.RecordingProxy;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Issue 24's fault program: two daemons editing throughout while the server is stopped, replaced by
 * one on an empty database, restored from a {@code pg_dump} taken seconds earlier, switched between
 * two replicas on one database, and while a teammate deletes many files on purpose. At the end a
 * checker compares every write each editor made (the last one of each key) and every delete with
 * both disks and the server: nothing lost, nothing deleted that nobody deleted, the deletes made on
 * purpose stuck. Prints the request counts during each fault. Exits 1 when the checker finds a
 * difference.
 *
 * <pre>
 * deploy/scripts/benchmark.sh faults
 * </pre>
 *
 * The PostgreSQL client tools ({@code pg_dump}, {@code pg_restore}) are taken from {@code
 * TMEM_PG_BIN}, else the newest {@code /usr/lib/postgresql/<version>/bin}, else the {@code PATH}.
 * The program stops by itself within eight minutes.
 */
public final class FaultProgram {

  private static final String REPO = "acme/faults";
  private static final Duration CONVERGE = Duration.ofSeconds(120);

  /**
   * The whole program's bound: past it, it says where it was and exits non-zero, so CI never hangs
   * on it. Most of a run is starting four servers: about five minutes on a 2-core machine shared
   * with other builds (load average 15 to 20), where one server takes up to a minute to start.
   */
  private static final Duration WHOLE_RUN = Duration.ofMinutes(8);

  private static final long STARTED = System.nanoTime();

  private final Path root;
  private final SyncFixture fixture;
  private final RecordingProxy proxy;
  private final Map<String, Map<String, String>> written = new ConcurrentHashMap<>();
  private final Set<String> deletedOnPurpose = ConcurrentHashMap.newKeySet();
  private final List<String> figures = new ArrayList<>();

  /** Set while the checker compares: an edit in flight would never let the copies agree. */
  private final AtomicBoolean paused = new AtomicBoolean();

  private FaultProgram(Path root, SyncFixture fixture, RecordingProxy proxy) {
    this.root = root;
    this.fixture = fixture;
    this.proxy = proxy;
  }

  public static void main(String[] arguments) throws Exception {
    if (System.getProperty("tmem.server.jar") == null) {
      System.setProperty("tmem.server.jar", "server/target/quarkus-app/quarkus-run.jar");
    }
    Thread.ofPlatform()
        .daemon()
        .name("faults-deadline")
        .start(
            () -> {
              pause(WHOLE_RUN);
              System.out.println(
                  "faults: DID NOT FINISH within " + WHOLE_RUN.toMinutes() + " minutes");
              System.out.flush();
              Runtime.getRuntime().halt(2);
            });
    Path root = Files.createTempDirectory("tmem-faults-");
    boolean clean;
    try (ServerProcess first = ServerProcess.start(root.resolve("server-a"));
        RecordingProxy proxy = RecordingProxy.start(first.url());
        SyncFixture fixture = new SyncFixture(root)) {
      clean = new FaultProgram(root, fixture, proxy).run(first);
    } catch (IllegalStateException late) {
      System.out.println("faults: FAILED: " + late.getMessage());
      clean = false;
    }
    System.exit(clean ? 0 : 1);
  }

  private boolean run(ServerProcess first) throws Exception {
    long began = System.nanoTime();
    SyncEngine alice = fixture.daemon("alice", REPO, proxy.url(), ServerProcess.ALICE);
    SyncEngine bob = fixture.daemon("bob", REPO, proxy.url(), ServerProcess.BOB);
    await("both daemons started", () -> alice.whenStarted().isDone() && bob.whenStarted().isDone());
    AtomicBoolean editing = new AtomicBoolean(true);
    List<Thread> editors = List.of(editor("alice", editing, 11), editor("bob", editing, 13));
    editors.forEach(Thread::start);
    pause(Duration.ofSeconds(5));
    converge("before the faults", first);

    // 1. The server stops; the daemons keep editing.
    first.stop();
    long requests = outage("server stopped", Duration.ofSeconds(15));

    // 2. Replaced by one on an empty database at the same address.
    try (ServerProcess empty = ServerProcess.start(root.resolve("server-b"))) {
      figures.add("server stopped: " + requests + " requests");
      proxy.clear();
      proxy.upstreamIs(empty.url());
      converge("replaced by an empty database", empty);

      // 3. Restored from a pg_dump taken seconds earlier, while the editing goes on.
      Path dump = root.resolve("backup.dump");
      pgTool(empty, "pg_dump", "-Fc", "-f", dump.toString());
      pause(Duration.ofSeconds(8));
      proxy.answerAll(503, Map.of("Retry-After", "2"));
      long restoring = System.nanoTime();
      try (ServerProcess restored = ServerProcess.start(root.resolve("server-c"))) {
        pgTool(restored, "pg_restore", "--clean", "--if-exists", "--no-owner", dump.toString());
        figures.add(
            "restore (503 while it ran, "
                + (System.nanoTime() - restoring) / 1_000_000_000
                + " s): "
                + proxy.exchanges().size()
                + " requests");
        proxy.clear();
        proxy.upstreamIs(restored.url()).answerAll(0, Map.of());
        converge("restored from a backup taken seconds earlier", restored);

        // 4. Two replicas on one database; the proxy switches between them.
        try (ServerProcess replica =
            ServerProcess.start(
                root.resolve("server-d"),
                "QUARKUS_DATASOURCE_JDBC_URL=" + jdbcUrl(restored),
                "QUARKUS_DATASOURCE_USERNAME=postgres",
                "QUARKUS_DATASOURCE_PASSWORD=")) {
          for (int i = 0; i < 4; i++) {
            proxy.upstreamIs(i % 2 == 0 ? replica.url() : restored.url());
            pause(Duration.ofSeconds(4));
          }
          converge("switched between two replicas", replica);

          // 5. Bob deletes many of his files on purpose, and confirms it.
          List<String> bobs = new ArrayList<>(written.get("bob").keySet());
          editing.set(false);
          for (Thread editor : editors) {
            editor.join();
          }
          // Half of his files: far more than the mass-delete hold lets through unconfirmed.
          List<String> doomed =
              new ArrayList<>(
                  bobs.subList(0, Math.max(Math.min(10, bobs.size()), bobs.size() / 2)));
          for (String key : doomed) {
            Files.deleteIfExists(fixture.teamDir("bob").resolve(key));
            written.get("bob").remove(key);
            deletedOnPurpose.add(key);
          }
          await(
              "the delete hold (or the deletes sent, when too few to hold)",
              () ->
                  bob.state().heldDeletes().isPresent()
                      || doomed.stream().noneMatch(bob.state().syncedChecksums()::containsKey));
          figures.add(
              "bob deleted "
                  + doomed.size()
                  + " files: "
                  + (bob.state().heldDeletes().isPresent() ? "held, then confirmed" : "not held"));
          DeleteConfirmation.request(fixture.stateDir("bob"));
          converge("a teammate deleted " + doomed.size() + " files on purpose", replica);
          pause(Duration.ofSeconds(5));
          boolean clean = check(replica);
          figures.add("total " + (System.nanoTime() - began) / 1_000_000_000 + " s");
          figures.forEach(line -> System.out.println("faults: " + line));
          System.out.println("faults: alice says " + alice.state().forgotten().orElse("nothing"));
          System.out.println("faults: " + (clean ? "nothing lost" : "DIFFERENCES FOUND"));
          return clean;
        }
      }
    } finally {
      editing.set(false);
    }
  }

  /** An editor: writes a new file or changes one of its own every ~300 ms, recording each. */
  private Thread editor(String who, AtomicBoolean editing, long seed) {
    Map<String, String> mine = written.computeIfAbsent(who, k -> new ConcurrentHashMap<>());
    Random random = new Random(seed);
    return Thread.ofPlatform()
        .name("editor-" + who)
        .unstarted(
            () -> {
              int n = 0;
              while (editing.get()) {
                if (paused.get()) {
                  pause(Duration.ofMillis(50));
                  continue;
                }
                String key =
                    mine.isEmpty() || random.nextInt(3) == 0
                        ? who + "/note-" + (n++) + ".md"
                        : new ArrayList<>(new TreeSet<>(mine.keySet()))
                            .get(random.nextInt(mine.size()));
                String content = who + " wrote " + key + " at " + System.nanoTime() + "\n";
                try {
                  Path file = fixture.teamDir(who).resolve(key);
                  Files.createDirectories(file.getParent());
                  Files.writeString(file, content);
                  mine.put(key, content);
                } catch (IOException e) {
                  throw new IllegalStateException(e);
                }
                pause(Duration.ofMillis(250 + random.nextInt(100)));
              }
            });
  }

  private long outage(String what, Duration length) {
    proxy.clear();
    long started = System.nanoTime();
    pause(length);
    long requests = proxy.exchanges().size();
    long seconds = Math.max(1, (System.nanoTime() - started) / 1_000_000_000);
    System.out.printf(
        "faults: %s: %d requests in %d s (two daemons, %.2f a second)%n",
        what, requests, seconds, requests / (double) seconds);
    return requests;
  }

  /** Waits until the server and both disks hold every key's last write and no deleted key. */
  private void converge(String phase, ServerProcess server) throws IOException {
    long started = System.nanoTime();
    int before = proxy.exchanges().size();
    paused.set(true);
    pause(Duration.ofMillis(400)); // an edit under way finishes and is recorded
    try (TeamMemoryClient reader =
        new TeamMemoryClient(server.url(), () -> ServerProcess.READER, "faults")) {
      try {
        await(phase, () -> quietlyEmpty(() -> differences(reader)));
      } catch (IllegalStateException late) {
        differences(reader).forEach(difference -> System.out.println("faults: " + difference));
        throw late;
      }
    } finally {
      paused.set(false);
    }
    String line =
        String.format(
            "%s: converged in %.1f s, %d requests",
            phase, (System.nanoTime() - started) / 1e9, proxy.exchanges().size() - before);
    System.out.println("faults: " + line);
    figures.add(line);
  }

  private boolean check(ServerProcess server) throws IOException {
    try (TeamMemoryClient reader =
        new TeamMemoryClient(server.url(), () -> ServerProcess.READER, "faults")) {
      List<String> differences = differences(reader);
      differences.forEach(difference -> System.out.println("faults: " + difference));
      Map<String, String> onServer = SyncFixture.entries(reader, REPO);
      for (String who : List.of("alice", "bob")) {
        figures.add(who + "'s disk: " + files(fixture.teamDir(who)).size() + " files");
      }
      figures.add("the server: " + onServer.size() + " files");
      return differences.isEmpty();
    }
  }

  /** Every way the server and the disks differ from what the editors wrote and deleted. */
  private List<String> differences(TeamMemoryClient reader) throws IOException {
    Map<String, String> expected = new TreeMap<>();
    written.values().forEach(expected::putAll);
    List<String> differences = new ArrayList<>();
    Map<String, Map<String, String>> places = new TreeMap<>();
    places.put("the server", SyncFixture.entries(reader, REPO));
    for (String who : List.of("alice", "bob")) {
      places.put(who + "'s disk", files(fixture.teamDir(who)));
    }
    places.forEach(
        (place, files) -> {
          expected.forEach(
              (key, content) -> {
                if (!content.equals(files.get(key))) {
                  differences.add(
                      place + (files.containsKey(key) ? " holds another " : " lacks ") + key);
                }
              });
          deletedOnPurpose.forEach(
              key -> {
                if (files.containsKey(key)) {
                  differences.add(place + " still holds " + key + ", deleted on purpose");
                }
              });
        });
    return differences;
  }

  private static Map<String, String> files(Path team) throws IOException {
    Map<String, String> files = new TreeMap<>();
    if (!Files.isDirectory(team)) {
      return files;
    }
    try (Stream<Path> all = Files.walk(team)) {
      for (Path file : all.filter(Files::isRegularFile).toList()) {
        String key = team.relativize(file).toString().replace('\\', '/');
        if (!key.startsWith(".tmem-write-")) {
          files.put(key, Files.readString(file));
        }
      }
    }
    return files;
  }

  private interface Differences {
    List<String> get() throws IOException;
  }

  private static boolean quietlyEmpty(Differences differences) {
    try {
      return differences.get().isEmpty();
    } catch (IOException | RuntimeException e) {
      return false; // a file renamed under the walk: asked again
    }
  }

  private static String jdbcUrl(ServerProcess server) throws SQLException {
    try (Connection connection = server.database()) {
      return connection.getMetaData().getURL();
    }
  }

  /** Runs a PostgreSQL client tool against the server's database. */
  private static void pgTool(ServerProcess server, String tool, String... arguments)
      throws Exception {
    String url;
    try (Connection connection = server.database()) {
      url = connection.getMetaData().getURL();
    }
    String port = url.replaceAll(".*:(\\d+)/.*", "$1");
    List<String> command = new ArrayList<>();
    command.add(pgBin(tool));
    command.addAll(List.of("-h", "localhost", "-p", port, "-U", "postgres", "-d", "postgres"));
    command.addAll(List.of(arguments));
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.INHERIT)
            .start();
    if (process.waitFor() != 0) {
      throw new IllegalStateException(tool + " failed with " + process.exitValue());
    }
  }

  private static String pgBin(String tool) {
    String chosen = System.getenv("TMEM_PG_BIN");
    if (chosen != null && Files.isExecutable(Path.of(chosen, tool))) {
      return Path.of(chosen, tool).toString();
    }
    // The newest of the machine's PostgreSQL installations (Debian's layout), else the PATH.
    try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
      Optional<Path> newest =
          versions
              .map(version -> version.resolve("bin").resolve(tool))
              .filter(Files::isExecutable)
              .max(
                  Comparator.comparingInt(
                      path -> versionNumber(path.getParent().getParent().getFileName())));
      if (newest.isPresent()) {
        return newest.get().toString();
      }
    } catch (IOException e) {
      // no such folder: the PATH
    }
    return tool;
  }

  private static int versionNumber(Path folder) {
    try {
      return Integer.parseInt(folder.toString());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static void await(String what, BooleanSupplier condition) {
    long end =
        Math.min(
            System.nanoTime() + CONVERGE.toNanos(), STARTED + WHOLE_RUN.toNanos() - 5_000_000_000L);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new IllegalStateException("not within " + CONVERGE.toSeconds() + " s: " + what);
      }
      pause(Duration.ofMillis(200));
    }
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
