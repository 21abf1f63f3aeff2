package dev.teammemory.deploy.load;

import dev.teammemory.deploy.replicas.ScratchDatabase;
import dev.teammemory.deploy.replicas.ServerReplica;
import dev.teammemory.deploy.replicas.TeamMemoryHttp;
import dev.teammemory.deploy.replicas.TeamMemoryHttp.Reply;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;

/**
 * Two replicas under sustained mixed load, then faults: PostgreSQL restarts mid-run, and later one
 * replica is killed (SIGKILL) and started again. Prints latency percentiles, error counts, the
 * requests each fault failed and how long until requests succeeded again, and checks that every
 * acknowledged write is present afterwards. A benchmark program: it prints figures and asserts no
 * timings.
 *
 * <p>The load: workers send probes ({@code ?view=hashes}), full GETs and small PUTs (one or two new
 * keys of 100–1,500 bytes) to random repositories among hundreds, through a client-side balancer
 * that, like a load balancer, routes round-robin over the replicas that answer {@code
 * /q/health/ready} (checked every 500 ms) and takes a replica out at once when a connection to it
 * fails. Requests are not retried: every failure is counted.
 *
 * <p>Run from the repository root on a machine with PostgreSQL on 127.0.0.1:5432 (trust auth, user
 * postgres) that this user may restart, after building the server:
 *
 * <pre>
 * deploy/scripts/benchmark.sh load [SECONDS=150] [REPOSITORIES=300] [WORKERS=16]
 * </pre>
 *
 * The PostgreSQL restart runs {@code pg_ctlcluster --skip-systemctl-redirect VERSION main restart}
 * (the newest cluster under /etc/postgresql), or the command in {@code
 * -Dtmem.load.postgres-restart="…"}. Everything runs on loopback; the run is bounded by its
 * duration and by {@link #MAX_REQUESTS}; it creates its own database and drops it afterwards. Exits
 * 1 when an acknowledged write is missing.
 */
public final class LoadAndFaults {

  static final int MAX_REQUESTS = 2_000_000;
  private static final String OWNER = "load";
  private static final Path SERVER_JAR = Path.of("server/target/quarkus-app/quarkus-run.jar");

  private final int seconds;
  private final int repositories;
  private final int workers;
  private final String token = "load-" + HexFormat.of().formatHex(randomBytes());
  private final TeamMemoryHttp http = new TeamMemoryHttp(Duration.ofSeconds(10));
  private final Requests requests = new Requests(MAX_REQUESTS);
  private final Acknowledged acknowledged = new Acknowledged();
  private final List<Fault> faults = new ArrayList<>();
  private volatile long startNanos;

  private LoadAndFaults(int seconds, int repositories, int workers) {
    this.seconds = seconds;
    this.repositories = repositories;
    this.workers = workers;
  }

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 150;
    int repositories = args.length > 1 ? Integer.parseInt(args[1]) : 300;
    int workers = args.length > 2 ? Integer.parseInt(args[2]) : 16;
    if (seconds < 30 || seconds > 1800 || repositories < 1 || workers < 1 || workers > 256) {
      System.err.println(
          "usage: LoadAndFaults [SECONDS 30..1800] [REPOSITORIES >= 1] [WORKERS 1..256]");
      System.exit(2);
    }
    System.exit(new LoadAndFaults(seconds, repositories, workers).run());
  }

  private static byte[] randomBytes() {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }

  private int run() throws Exception {
    if (!Files.isRegularFile(SERVER_JAR)) {
      System.err.println(
          "no server at "
              + SERVER_JAR.toAbsolutePath()
              + ": run from the repository root after"
              + " ./mvnw -q -pl server -am package -DskipTests");
      return 2;
    }
    Path work = Files.createTempDirectory("tmem-load-");
    // A private copy, as a deployment runs an immutable artifact: a rebuild of server/target
    // during the run must not change the jars under the replicas.
    Path jar =
        copyTree(SERVER_JAR.getParent(), work.resolve("quarkus-app")).resolve("quarkus-run.jar");
    Path tokens = work.resolve("tokens.txt");
    Files.writeString(tokens, token + " load-test " + OWNER + "/* write\n");
    Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-------"));
    try (ScratchDatabase database =
        ScratchDatabase.create(ScratchDatabase.MACHINE_POSTGRES, "tmem_load_")) {
      Map<String, String> settings = Map.of("TMEM_AUTH_STATIC_TOKENS_FILE", tokens.toString());
      ServerReplica a = ServerReplica.of("replica-a", jar, database.jdbcUrl(), settings, work);
      ServerReplica b = ServerReplica.of("replica-b", jar, database.jdbcUrl(), settings, work);
      try (a;
          b) {
        return runOn(database, a, b);
      } finally {
        // Before the database is dropped: a failed restart must not leave PostgreSQL down.
        ensurePostgresRuns();
      }
    } finally {
      try (Stream<Path> files = Files.walk(work)) {
        files.sorted((x, y) -> y.getNameCount() - x.getNameCount()).forEach(LoadAndFaults::delete);
      }
    }
  }

  private int runOn(ScratchDatabase database, ServerReplica a, ServerReplica b) throws Exception {
    a.start();
    b.start();
    Duration readyA = a.awaitReady(Duration.ofMinutes(3));
    Duration readyB = b.awaitReady(Duration.ofMinutes(3));
    System.out.printf(
        "machine: %d cores, load average %s (other work shares it); PostgreSQL on loopback%n",
        Runtime.getRuntime().availableProcessors(), loadAverage());
    System.out.printf(
        "setup: replicas A %s (ready after %.1f s) and B %s (ready after %.1f s), started"
            + " together on database %s; %d repositories, %d workers, %d s of load%n",
        a.url(),
        readyA.toMillis() / 1000.0,
        b.url(),
        readyB.toMillis() / 1000.0,
        database.name(),
        repositories,
        workers,
        seconds);
    Balancer balancer = new Balancer(List.of(a, b));
    seed(balancer);
    load(balancer, a, b);
    return report(a);
  }

  // ---- load ------------------------------------------------------------------------------------

  private String repo(int index) {
    return OWNER + "/repo-" + index;
  }

  /**
   * Every repository gets a MEMORY.md and two topic files before the clock starts. A cold server
   * may time out on its first requests, so a seed is tried up to five times.
   */
  private void seed(Balancer balancer) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    Map<String, String> failures = new ConcurrentHashMap<>();
    for (int index = 0; index < repositories; index++) {
      String repo = repo(index);
      pool.submit(
          () -> {
            Map<String, String> entries =
                Map.of(
                    "MEMORY.md", "# Team memory\n\n- [Testing](testing.md)\n",
                    "testing.md",
                        "---\nname: Testing\ntype: project\n---\nUse the real database.\n",
                    "reference/links.md", "- dashboards: grafana\n");
            for (int attempt = 0; attempt < 5; attempt++) {
              try {
                Reply reply = http.put(balancer.next(), token, repo, entries, Optional.empty());
                if (reply.status() == 200) {
                  acknowledged.add(repo, entries);
                  failures.remove(repo);
                  return null;
                }
                failures.put(repo, "HTTP " + reply.status() + " " + reply.body());
              } catch (IOException e) {
                failures.put(repo, e.toString());
              }
            }
            return null;
          });
    }
    pool.shutdown();
    if (!pool.awaitTermination(10, TimeUnit.MINUTES) || !failures.isEmpty()) {
      throw new IllegalStateException(
          "seeding failed for "
              + failures.size()
              + " repositories, for example: "
              + failures.values().stream().findFirst().orElse("(timed out)"));
    }
  }

  private void load(Balancer balancer, ServerReplica a, ServerReplica b) throws Exception {
    startNanos = System.nanoTime();
    long endNanos = startNanos + TimeUnit.SECONDS.toNanos(seconds);
    balancer.startHealthChecks();
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    for (int worker = 0; worker < workers; worker++) {
      int id = worker;
      pool.submit(() -> work(id, balancer, endNanos));
    }
    pool.shutdown();

    // The faults, at fixed points of the run: PostgreSQL restarts at 30 %, replica B is killed at
    // 55 % and started again at 75 %.
    awaitOffset(0.30);
    faults.add(restartPostgres());
    awaitOffset(0.55);
    long killAt = elapsedNanos();
    b.kill();
    faults.add(new Fault("kill -9 replica B", killAt, elapsedNanos(), Optional.empty()));
    awaitOffset(0.75);
    long restartAt = elapsedNanos();
    b.start();
    Duration ready = b.awaitReady(Duration.ofMinutes(3));
    faults.add(
        new Fault(
            "start replica B again",
            restartAt,
            elapsedNanos(),
            Optional.of("ready after " + ready.toMillis() / 1000.0 + " s")));

    if (!pool.awaitTermination(seconds + 60L, TimeUnit.SECONDS)) {
      pool.shutdownNow();
      throw new IllegalStateException("workers did not stop after the load's end");
    }
    balancer.stopHealthChecks();
  }

  private void work(int worker, Balancer balancer, long endNanos) {
    SplittableRandom random = new SplittableRandom(worker * 7919L + 1);
    long sequence = 0;
    while (System.nanoTime() < endNanos && requests.hasRoom()) {
      String repo = repo(random.nextInt(repositories));
      int dice = random.nextInt(100);
      Operation operation = dice < 45 ? Operation.PROBE : dice < 80 ? Operation.GET : Operation.PUT;
      Map<String, String> entries = Map.of();
      if (operation == Operation.PUT) {
        entries = new TreeMap<>();
        int count = 1 + random.nextInt(2);
        for (int i = 0; i < count; i++) {
          entries.put(
              "notes/w" + worker + "-" + sequence++ + ".md",
              text(random, 100 + random.nextInt(1400)));
        }
      }
      URI replica = balancer.next();
      long start = System.nanoTime();
      int outcome;
      try {
        Reply reply =
            switch (operation) {
              case PROBE -> http.hashes(replica, token, repo);
              case GET -> http.get(replica, token, repo);
              case PUT -> http.put(replica, token, repo, entries, Optional.empty());
            };
        outcome = reply.status();
        if (operation == Operation.PUT) {
          if (outcome == 200) {
            acknowledged.add(repo, entries);
          } else {
            acknowledged.unknown(repo, entries);
          }
        }
      } catch (IOException e) {
        balancer.failed(replica);
        outcome = Requests.failureCode(e);
        if (operation == Operation.PUT) {
          acknowledged.unknown(repo, entries);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      long end = System.nanoTime();
      requests.record(
          start - startNanos, end - start, operation, outcome, balancer.indexOf(replica));
    }
  }

  private static String text(SplittableRandom random, int length) {
    String words = "memory team test database replica deploy schema index notes commit review ";
    StringBuilder text = new StringBuilder(length + 16);
    while (text.length() < length) {
      int from = random.nextInt(words.length() - 12);
      text.append(words, from, from + 8 + random.nextInt(4));
    }
    return text.append('\n').toString();
  }

  private Fault restartPostgres() throws IOException, InterruptedException {
    List<String> command = postgresRestartCommand();
    long at = elapsedNanos();
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    boolean finished = process.waitFor(120, TimeUnit.SECONDS);
    String output = new String(process.getInputStream().readAllBytes()).strip();
    long done = elapsedNanos();
    if (!finished || process.exitValue() != 0) {
      throw new IllegalStateException(
          String.join(" ", command)
              + " failed ("
              + (finished ? process.exitValue() : "timeout")
              + "): "
              + output);
    }
    return new Fault(
        "restart PostgreSQL", at, done, Optional.of("`" + String.join(" ", command) + "`"));
  }

  private static List<String> postgresRestartCommand() throws IOException {
    String configured = System.getProperty("tmem.load.postgres-restart");
    if (configured != null && !configured.isBlank()) {
      return List.of("sh", "-c", configured);
    }
    try (Stream<Path> versions = Files.list(Path.of("/etc/postgresql"))) {
      String version =
          versions
              .map(path -> path.getFileName().toString())
              .filter(name -> name.matches("[0-9]+"))
              .max((x, y) -> Integer.compare(Integer.parseInt(x), Integer.parseInt(y)))
              .orElseThrow(() -> new IllegalStateException("no cluster under /etc/postgresql"));
      return List.of("pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart");
    }
  }

  /** After a failed restart, or any exit, the machine's PostgreSQL must be up again. */
  private static void ensurePostgresRuns() {
    try {
      Process ready =
          new ProcessBuilder("pg_isready", "-q", "-h", "127.0.0.1", "-p", "5432").start();
      if (ready.waitFor(10, TimeUnit.SECONDS) && ready.exitValue() == 0) {
        return;
      }
      List<String> start = new ArrayList<>(postgresRestartCommand());
      start.set(start.size() - 1, "start");
      new ProcessBuilder(start).inheritIO().start().waitFor(60, TimeUnit.SECONDS);
    } catch (IOException | IllegalStateException e) {
      System.err.println("could not check or start PostgreSQL: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void awaitOffset(double fraction) throws InterruptedException {
    long target = (long) (TimeUnit.SECONDS.toNanos(seconds) * fraction);
    long wait = target - elapsedNanos();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  private long elapsedNanos() {
    return System.nanoTime() - startNanos;
  }

  // ---- report ----------------------------------------------------------------------------------

  private int report(ServerReplica survivor) throws Exception {
    long second = TimeUnit.SECONDS.toNanos(1);
    Fault restart = faults.get(0);
    Fault kill = faults.get(1);
    Fault rejoin = faults.get(2);
    List<Report.Phase> phases =
        List.of(
            new Report.Phase(
                "both replicas, after the PostgreSQL restart",
                restart.done() + 2 * second,
                kill.at()),
            new Report.Phase("replica A alone (B killed)", kill.at() + second, rejoin.done()),
            new Report.Phase(
                "both again (B restarted, its JIT cold)",
                rejoin.done(),
                TimeUnit.SECONDS.toNanos(seconds)));
    Report report = new Report(requests, faults, seconds, List.of("A", "B"), phases);
    report.print(System.out);
    System.out.printf("%nload average at the end: %s%n", loadAverage());
    return verify(survivor.url()) ? 0 : 1;
  }

  /** Every acknowledged write must be there, read back through a replica that ran throughout. */
  private boolean verify(URI replica) throws Exception {
    long writes = acknowledged.writes();
    int missing = 0;
    int unknownApplied = 0;
    int unknownAbsent = 0;
    int unreadable = 0;
    for (String repo : acknowledged.repositories()) {
      Reply reply = null;
      for (int attempt = 0; attempt < 10 && (reply == null || reply.status() != 200); attempt++) {
        try {
          reply = http.get(replica, token, repo);
        } catch (IOException e) {
          TimeUnit.MILLISECONDS.sleep(500);
        }
      }
      if (reply == null || reply.status() != 200) {
        unreadable++;
        missing += acknowledged.keys(repo).size();
        continue;
      }
      for (Map.Entry<String, String> entry : acknowledged.keys(repo).entrySet()) {
        if (!reply.entry(entry.getKey()).equals(Optional.of(entry.getValue()))) {
          missing++;
        }
      }
      for (String key : acknowledged.unknownKeys(repo)) {
        if (reply.entry(key).isPresent()) {
          unknownApplied++;
        } else {
          unknownAbsent++;
        }
      }
    }
    System.out.println();
    System.out.printf(
        "verification: %d acknowledged PUTs wrote %d keys in %d repositories; read back through"
            + " replica A: %d missing or different%s%n",
        acknowledged.puts(),
        writes,
        acknowledged.repositories().size(),
        missing,
        unreadable == 0 ? "" : " (" + unreadable + " repositories unreadable)");
    System.out.printf(
        "  PUTs that failed without an answer or with an error (outcome unknown to the client):"
            + " %d keys, of which %d were applied and %d were not%n",
        unknownApplied + unknownAbsent, unknownApplied, unknownAbsent);
    boolean passed = missing == 0 && writes > 0;
    System.out.println(
        (passed ? "PASS" : "FAIL") + " every acknowledged write is present afterwards");
    return passed;
  }

  /** The 1, 5 and 15 minute load averages, where /proc has them. */
  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static Path copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
    return to;
  }

  private static void delete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // a temporary file left behind is harmless
    }
  }

  // ---- parts -----------------------------------------------------------------------------------

  enum Operation {
    PROBE,
    GET,
    PUT
  }

  /**
   * A fault and when it happened, in nanoseconds since the load started.
   *
   * @param what what was done
   * @param at when it began
   * @param done when the action returned
   * @param note how it was done, or what followed
   */
  record Fault(String what, long at, long done, Optional<String> note) {}

  /** What the client saw acknowledged, per repository and key, and what it could not know. */
  static final class Acknowledged {

    private final Map<String, Map<String, String>> keys = new ConcurrentHashMap<>();
    private final Map<String, List<String>> unknown = new ConcurrentHashMap<>();
    private final AtomicInteger puts = new AtomicInteger();

    void add(String repo, Map<String, String> entries) {
      keys.computeIfAbsent(repo, ignored -> new ConcurrentHashMap<>()).putAll(entries);
      puts.incrementAndGet();
    }

    void unknown(String repo, Map<String, String> entries) {
      unknown
          .computeIfAbsent(repo, ignored -> Collections.synchronizedList(new ArrayList<>()))
          .addAll(entries.keySet());
    }

    List<String> repositories() {
      return keys.keySet().stream().sorted().toList();
    }

    Map<String, String> keys(String repo) {
      return keys.getOrDefault(repo, Map.of());
    }

    List<String> unknownKeys(String repo) {
      return List.copyOf(unknown.getOrDefault(repo, List.of()));
    }

    long writes() {
      return keys.values().stream().mapToLong(Map::size).sum();
    }

    int puts() {
      return puts.get();
    }
  }

  /**
   * Round-robin over the replicas that are in rotation. A replica leaves the rotation when a
   * connection to it fails, and returns when its readiness check answers 200 again; when none is in
   * rotation, every replica is tried (fail open, as load balancers do).
   */
  static final class Balancer {

    private final List<ServerReplica> replicas;

    /** 1 when in rotation; written by workers and the health checker, read by every worker. */
    private final AtomicIntegerArray inRotation;

    private final AtomicInteger next = new AtomicInteger();
    private volatile boolean checking;
    private Thread checker;

    Balancer(List<ServerReplica> replicas) {
      this.replicas = List.copyOf(replicas);
      this.inRotation = new AtomicIntegerArray(replicas.size());
      for (int index = 0; index < replicas.size(); index++) {
        inRotation.set(index, 1);
      }
    }

    URI next() {
      for (int tries = 0; tries < replicas.size(); tries++) {
        int index = Math.floorMod(next.getAndIncrement(), replicas.size());
        if (inRotation.get(index) == 1) {
          return replicas.get(index).url();
        }
      }
      return replicas.get(Math.floorMod(next.getAndIncrement(), replicas.size())).url();
    }

    int indexOf(URI url) {
      for (int index = 0; index < replicas.size(); index++) {
        if (replicas.get(index).url().equals(url)) {
          return index;
        }
      }
      throw new IllegalArgumentException("not a replica: " + url);
    }

    void failed(URI url) {
      inRotation.set(indexOf(url), 0);
    }

    void startHealthChecks() {
      checking = true;
      checker =
          Thread.ofPlatform()
              .name("balancer-health")
              .daemon()
              .start(
                  () -> {
                    while (checking) {
                      try {
                        for (int index = 0; index < replicas.size(); index++) {
                          inRotation.set(index, replicas.get(index).ready() ? 1 : 0);
                        }
                        TimeUnit.MILLISECONDS.sleep(500);
                      } catch (InterruptedException e) {
                        return;
                      }
                    }
                  });
    }

    void stopHealthChecks() throws InterruptedException {
      checking = false;
      checker.interrupt();
      checker.join(5_000);
    }
  }

  /** Fixed-size columns of what every request did; a worker claims a row with one increment. */
  static final class Requests {

    static final int CONNECTION_REFUSED = -1;
    static final int TIMEOUT = -2;
    static final int CONNECTION_LOST = -3;

    final long[] startNanos;
    final int[] latencyMicros;
    final byte[] operation;
    final short[] outcome;
    final byte[] replica;
    private final AtomicInteger size = new AtomicInteger();

    Requests(int capacity) {
      startNanos = new long[capacity];
      latencyMicros = new int[capacity];
      operation = new byte[capacity];
      outcome = new short[capacity];
      replica = new byte[capacity];
    }

    boolean hasRoom() {
      return size.get() < startNanos.length;
    }

    void record(long start, long latency, Operation operation, int outcome, int replica) {
      int row = size.getAndIncrement();
      if (row >= startNanos.length) {
        return;
      }
      startNanos[row] = start;
      latencyMicros[row] = (int) Math.min(Integer.MAX_VALUE, latency / 1_000);
      this.operation[row] = (byte) operation.ordinal();
      this.outcome[row] = (short) outcome;
      this.replica[row] = (byte) replica;
    }

    int size() {
      return Math.min(size.get(), startNanos.length);
    }

    static int failureCode(IOException e) {
      if (e instanceof ConnectException) {
        return CONNECTION_REFUSED;
      }
      if (e instanceof HttpTimeoutException) {
        return TIMEOUT;
      }
      return CONNECTION_LOST;
    }

    static String describe(int outcome) {
      return switch (outcome) {
        case CONNECTION_REFUSED -> "connection refused";
        case TIMEOUT -> "timeout (10 s)";
        case CONNECTION_LOST -> "connection closed mid-request";
        default -> "HTTP " + outcome;
      };
    }

    static boolean succeeded(int outcome) {
      return outcome == 200;
    }
  }
}
