package dev.teammemory.daemon.bench;

import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.sync.SyncEngine;
import dev.teammemory.daemon.sync.SyncSettings;
import dev.teammemory.daemon.sync.SyncState;
import dev.teammemory.daemon.sync.SyncTarget;
import dev.teammemory.daemon.testing.Conditions;
import dev.teammemory.daemon.testing.RecordingProxy;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.protocol.BatchPlanner;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.secrets.SecretScanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;

/**
 * Measures per-file sync against the real server (figures in {@code docs/benchmarks.md}, "Per-file
 * sync"):
 *
 * <ol>
 *   <li>bytes on a following daemon's wire (both directions, headers included) for one teammate's 1
 *       KB edit, at 1,000 and at 10,000 entries (the server's entry cap raised);
 *   <li>edit → visible on another daemon, p50 and p95, with the real 2 s quiet period;
 *   <li>8 daemons each writing 15 different files at the same moment: landed, conflicts, writes per
 *       file;
 *   <li>fan-out: 100 followers (engines in this JVM), one edit: time until each holds it (p50, p99,
 *       all) and the server's CPU time per edit;
 *   <li>a follower's first sync (the streamed export) at 1,000 and 10,000 entries: time and bytes;
 *       a daemon's first push of 1,000 files of 1 KB to an empty repository: time;
 *   <li>push CPU per edit in a 1,000-file folder: the CPU time of the editing daemon's sync thread
 *       (the push, and the pull of its own write that follows) per 1 KB edit.
 * </ol>
 *
 * Run: {@code deploy/scripts/benchmark.sh per-file-sync [EDITS=10] [FOLLOWERS=100]}; {@code
 * -Dbench.parts=first} measures only the first sync and the first push, {@code
 * -Dbench.parts=push-cpu} only the push CPU per edit, {@code -Dbench.parts=edit} the figures of one
 * edit (the follower's wire, edit → visible, push CPU).
 */
public final class PerFileSyncBenchmark {

  private static final Duration DEADLINE = Duration.ofMinutes(5);
  private static final SecretGuard GUARD = new SecretGuard(SecretScanner.defaultRules());
  private static final String KILOBYTE = "- a remembered fact, about a kilobyte long\n".repeat(24);

  private PerFileSyncBenchmark() {}

  public static void main(String[] arguments) throws Exception {
    int edits = arguments.length > 0 ? Integer.parseInt(arguments[0]) : 10;
    int followers = arguments.length > 1 ? Integer.parseInt(arguments[1]) : 100;
    if (System.getProperty("tmem.server.jar") == null) {
      System.setProperty("tmem.server.jar", "server/target/quarkus-app/quarkus-run.jar");
    }
    Path root = Files.createTempDirectory("tmem-per-file-bench-");
    System.out.println(
        "machine: "
            + Runtime.getRuntime().availableProcessors()
            + " cores, "
            + System.getProperty("java.version"));
    try (ServerProcess server =
        ServerProcess.start(root.resolve("server"), "TMEM_LIMITS_MAX_ENTRIES=20000")) {
      String parts = System.getProperty("bench.parts", "all");
      if (parts.equals("push-cpu")) {
        pushCpu(server, root.resolve("push-cpu"), Math.max(edits, 20));
        return;
      }
      if (parts.equals("edit")) {
        for (int entries : List.of(1_000, 10_000)) {
          bytesForOneEdit(server, root.resolve("bytes-" + entries), entries, true);
        }
        editToVisible(server, root.resolve("latency"), edits);
        pushCpu(server, root.resolve("push-cpu"), Math.max(edits, 20));
        return;
      }
      boolean all = !parts.equals("first");
      for (int entries : List.of(1_000, 10_000)) {
        bytesForOneEdit(server, root.resolve("bytes-" + entries), entries, all);
      }
      firstPush(server, root.resolve("first-push"), 1_000);
      if (all) {
        editToVisible(server, root.resolve("latency"), edits);
        eightWriters(server, root.resolve("writers"));
        fanOut(server, root.resolve("fan-out"), followers);
        pushCpu(server, root.resolve("push-cpu"), Math.max(edits, 20));
      }
    }
  }

  private static SyncEngine engine(
      String url, String token, String repo, Path dir, SyncSettings settings) throws Exception {
    Path team = Files.createDirectories(dir.resolve("team"));
    TeamMemoryClient client = new TeamMemoryClient(url, () -> token, "tmem-bench");
    SyncEngine engine =
        SyncEngine.open(
            new SyncTarget(url, repo, team, dir.resolve("state")),
            client,
            () -> Optional.of(token),
            GUARD,
            settings);
    engine.start();
    return engine;
  }

  /** Writes {@code entries} files of about 1 KB straight to the server, in batches. */
  private static void seed(String url, String repo, int entries) {
    Map<String, String> all = new TreeMap<>();
    for (int i = 0; i < entries; i++) {
      all.put("topic-" + (i % 50) + "/note-" + i + ".md", KILOBYTE + i + "\n");
    }
    try (TeamMemoryClient writer = new TeamMemoryClient(url, () -> ServerProcess.ALICE, "seed")) {
      for (Map<String, String> batch : BatchPlanner.plan(all, BatchPlanner.MAX_BATCH_BYTES)) {
        if (!(writer.put(repo, batch, Optional.empty()) instanceof Response.Ok<?>)) {
          throw new IllegalStateException("seeding failed");
        }
      }
    }
  }

  private static void bytesForOneEdit(ServerProcess server, Path dir, int entries, boolean edit)
      throws Exception {
    String repo = "bench/bytes-" + entries;
    seed(server.url(), repo, entries);
    long started = System.nanoTime();
    try (RecordingProxy proxy = RecordingProxy.start(server.url());
        SyncEngine follower =
            engine(
                proxy.url(), ServerProcess.BOB, repo, dir.resolve("bob"), SyncSettings.defaults());
        TeamMemoryClient teammate =
            new TeamMemoryClient(server.url(), () -> ServerProcess.ALICE, "teammate")) {
      Path file = dir.resolve("bob/team/topic-7/note-7.md");
      Conditions.await(
          "the follower holds the repository",
          DEADLINE,
          () ->
              follower.state().memoryStore().map(SyncState.StoreSync::version).orElse(0L) > 0
                  && follower.state().syncedChecksums().size() == entries);
      long firstSync = System.nanoTime() - started;
      long firstBytes = 0;
      for (RecordingProxy.Exchange exchange : proxy.exchanges()) {
        firstBytes += exchange.requestBytes() + exchange.responseBytes();
      }
      System.out.printf(
          "first sync of a follower, %,d entries: %,d ms (engine start to holding all), %,d bytes"
              + " in %d request(s)%n",
          entries, firstSync / 1_000_000, firstBytes, proxy.exchanges().size());
      if (!edit) {
        return;
      }
      Thread.sleep(1_000); // the follower's long poll is waiting again
      proxy.clear();
      String edited = KILOBYTE.replace("fact", "FACT") + "edited\n";
      Response<?> put =
          teammate
              .memoryStores()
              .update(
                  follower.state().memoryStore().orElseThrow().id(),
                  follower.state().memoryStore().orElseThrow().memoryIds().get("topic-7/note-7.md"),
                  edited,
                  follower
                      .state()
                      .serverChecksums()
                      .get("topic-7/note-7.md")
                      .substring("sha256:".length()));
      if (!(put instanceof Response.Ok<?>)) {
        throw new IllegalStateException("the teammate's edit failed: " + put);
      }
      Conditions.await(
          "the follower has the edit",
          DEADLINE,
          () -> Conditions.quietly(() -> Files.readString(file).equals(edited)));
      Thread.sleep(1_000); // let it settle: the next long poll has been sent
      long bytes = 0;
      for (RecordingProxy.Exchange exchange : proxy.exchanges()) {
        bytes += exchange.requestBytes() + exchange.responseBytes();
      }
      System.out.printf(
          "one 1 KB edit, %,d entries: follower wire %,d bytes in %d request(s)%n",
          entries, bytes, proxy.exchanges().size());
    }
  }

  /**
   * A daemon that finds {@code files} local files of 1 KB and an empty repository: time to push.
   */
  private static void firstPush(ServerProcess server, Path dir, int files) throws Exception {
    String repo = "bench/first-push";
    Path team = Files.createDirectories(dir.resolve("alice/team"));
    for (int i = 0; i < files; i++) {
      Path file = team.resolve("topic-" + (i % 50) + "/note-" + i + ".md");
      Files.createDirectories(file.getParent());
      Files.writeString(file, KILOBYTE + i + "\n");
    }
    long started = System.nanoTime();
    try (SyncEngine alice =
        engine(
            server.url(),
            ServerProcess.ALICE,
            repo,
            dir.resolve("alice"),
            SyncSettings.defaults())) {
      Conditions.await(
          "every file is pushed", DEADLINE, () -> alice.state().syncedChecksums().size() == files);
      long took = System.nanoTime() - started;
      System.out.printf(
          "first push of %,d files of 1 KB (per-file transport): %,d ms, %.1f ms per file%n",
          files, took / 1_000_000, took / 1e6 / files);
    }
  }

  private static void editToVisible(ServerProcess server, Path dir, int edits) throws Exception {
    String repo = "bench/latency";
    seed(server.url(), repo, 1_000);
    try (SyncEngine alice =
            engine(
                server.url(),
                ServerProcess.ALICE,
                repo,
                dir.resolve("alice"),
                SyncSettings.defaults());
        SyncEngine bob =
            engine(
                server.url(),
                ServerProcess.BOB,
                repo,
                dir.resolve("bob"),
                SyncSettings.defaults())) {
      Conditions.await(
          "both hold the repository",
          DEADLINE,
          () ->
              alice.state().syncedChecksums().size() == 1_000
                  && bob.state().syncedChecksums().size() == 1_000
                  && bob.state().memoryStore().map(SyncState.StoreSync::version).orElse(0L) > 0);
      List<Long> millis = new ArrayList<>();
      for (int i = 0; i < edits; i++) {
        String content = KILOBYTE + "edit " + i + "\n";
        long start = System.nanoTime();
        Files.writeString(dir.resolve("alice/team/topic-3/note-3.md"), content);
        Path seen = dir.resolve("bob/team/topic-3/note-3.md");
        Conditions.await(
            "bob sees edit " + i,
            DEADLINE,
            () -> Conditions.quietly(() -> Files.readString(seen).equals(content)));
        millis.add((System.nanoTime() - start) / 1_000_000);
        Thread.sleep(500);
      }
      Collections.sort(millis);
      System.out.printf(
          "edit -> visible (2 s quiet period, 1,000 entries, %d edits): p50 %d ms, p95 %d ms%n",
          edits, percentile(millis, 50), percentile(millis, 95));
    }
  }

  /**
   * One daemon holding 1,000 files edits one of them {@code edits} times (after 5 edits to warm
   * up): the CPU time its sync thread spends per edit, from the file event to the pull of its own
   * write that follows (the thread runs nothing else meanwhile).
   */
  private static void pushCpu(ServerProcess server, Path dir, int edits) throws Exception {
    String repo = "bench/push-cpu";
    seed(server.url(), repo, 1_000);
    try (SyncEngine alice =
        engine(
            server.url(),
            ServerProcess.ALICE,
            repo,
            dir.resolve("alice"),
            SyncSettings.defaults())) {
      Conditions.await(
          "alice holds the repository",
          DEADLINE,
          () ->
              alice.state().syncedChecksums().size() == 1_000
                  && alice.state().memoryStore().map(SyncState.StoreSync::version).orElse(0L) > 0);
      Thread syncThread =
          Thread.getAllStackTraces().keySet().stream()
              .filter(thread -> thread.getName().equals("tmem-sync-bench-push-cpu"))
              .findFirst()
              .orElseThrow();
      java.lang.management.ThreadMXBean threads =
          java.lang.management.ManagementFactory.getThreadMXBean();
      int warmUp = 5;
      long cpuBefore = 0;
      Path file = dir.resolve("alice/team/topic-3/note-3.md");
      for (int i = 0; i < warmUp + edits; i++) {
        if (i == warmUp) {
          awaitIdle(syncThread);
          cpuBefore = threads.getThreadCpuTime(syncThread.threadId());
        }
        long version = alice.state().memoryStore().orElseThrow().version();
        String content = KILOBYTE + "edit " + i + "\n";
        String checksum = dev.teammemory.protocol.Checksums.ofContent(content);
        Files.writeString(file, content);
        // Pushed, and its own write pulled back (the version moved past it): the edit's work done.
        Conditions.await(
            "edit " + i + " is pushed and pulled back",
            DEADLINE,
            () ->
                checksum.equals(alice.state().syncedChecksums().get("topic-3/note-3.md"))
                    && alice.state().memoryStore().orElseThrow().version() > version);
      }
      awaitIdle(syncThread);
      long cpu = threads.getThreadCpuTime(syncThread.threadId()) - cpuBefore;
      System.out.printf(
          "push CPU per edit, 1,000-file folder (%d edits of 1 KB, sync thread): %.2f ms%n",
          edits, cpu / 1e6 / edits);
    }
  }

  /** Waits until the thread waits for work (the sync thread's executor parks it when idle). */
  private static void awaitIdle(Thread thread) throws Exception {
    Conditions.await(
        "the sync thread is idle",
        DEADLINE,
        () ->
            thread.getState() == Thread.State.WAITING
                || thread.getState() == Thread.State.TIMED_WAITING);
  }

  private static void eightWriters(ServerProcess server, Path dir) throws Exception {
    String repo = "bench/writers";
    try (RecordingProxy proxy = RecordingProxy.start(server.url())) {
      List<SyncEngine> writers = new ArrayList<>();
      try {
        for (int w = 0; w < 8; w++) {
          writers.add(
              engine(
                  proxy.url(),
                  ServerProcess.ALICE,
                  repo,
                  dir.resolve("w" + w),
                  SyncSettings.defaults()));
        }
        Conditions.await(
            "all started",
            DEADLINE,
            () -> writers.stream().allMatch(engine -> engine.state().lastPull().isPresent()));
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
          Path team = dir.resolve("w" + w + "/team");
          int writer = w;
          threads.add(
              Thread.ofPlatform()
                  .start(
                      () -> {
                        try {
                          go.await();
                          for (int f = 0; f < 15; f++) {
                            Files.writeString(
                                team.resolve("writer-" + writer + "-" + f + ".md"), KILOBYTE);
                          }
                        } catch (Exception e) {
                          throw new IllegalStateException(e);
                        }
                      }));
        }
        proxy.clear();
        go.countDown();
        for (Thread thread : threads) {
          thread.join();
        }
        try (TeamMemoryClient reader =
            new TeamMemoryClient(server.url(), () -> ServerProcess.READER, "reader")) {
          Conditions.await(
              "all 120 landed",
              DEADLINE,
              () ->
                  reader.fetchHashes(repo) instanceof Response.Ok<?> ok
                      && ((dev.teammemory.protocol.HashesView) ok.body()).entryChecksums().size()
                          == 120);
        }
        Thread.sleep(3_000);
        int conflicts = 0;
        for (SyncEngine engine : writers) {
          conflicts += engine.state().conflicts().size();
        }
        Map<String, Integer> writesPerFile = new HashMap<>();
        int puts = 0;
        for (RecordingProxy.Exchange exchange : proxy.exchanges()) {
          if (exchange.method().equals("POST") && exchange.target().contains("/memories")) {
            String body = exchange.body();
            int at = body.indexOf("\"path\":\"");
            String path =
                at < 0 ? exchange.target() : body.substring(at + 8, body.indexOf('"', at + 8));
            writesPerFile.merge(path, 1, Integer::sum);
          }
          if (exchange.method().equals("PUT")) {
            puts++;
          }
        }
        int maxWrites = writesPerFile.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        long retried = writesPerFile.values().stream().filter(count -> count > 1).count();
        System.out.printf(
            "8 writers x 15 files: 120 landed, %d conflict(s) recorded, %d file(s) retried, at most"
                + " %d write(s) per file, %d team_memory PUT(s)%n",
            conflicts, retried, maxWrites, puts);
      } finally {
        for (SyncEngine engine : writers) {
          engine.close();
        }
      }
    }
  }

  private static void fanOut(ServerProcess server, Path dir, int count) throws Exception {
    String repo = "bench/fan-out";
    seed(server.url(), repo, 100);
    List<SyncEngine> followers = new ArrayList<>();
    try (TeamMemoryClient teammate =
        new TeamMemoryClient(server.url(), () -> ServerProcess.ALICE, "teammate")) {
      for (int i = 0; i < count; i++) {
        followers.add(
            engine(
                server.url(),
                ServerProcess.BOB,
                repo,
                dir.resolve("f" + i),
                SyncSettings.defaults()));
      }
      Conditions.await(
          "every follower holds the repository",
          DEADLINE,
          () ->
              followers.stream()
                  .allMatch(
                      engine ->
                          engine.state().memoryStore().map(SyncState.StoreSync::version).orElse(0L)
                              > 0));
      Thread.sleep(2_000);
      SyncState first = followers.get(0).state();
      String edited = KILOBYTE + "fan-out edit\n";
      Duration cpuBefore = cpu(server);
      long start = System.nanoTime();
      Response<?> put =
          teammate
              .memoryStores()
              .update(
                  first.memoryStore().orElseThrow().id(),
                  first.memoryStore().orElseThrow().memoryIds().get("topic-1/note-1.md"),
                  edited,
                  first.serverChecksums().get("topic-1/note-1.md").substring("sha256:".length()));
      if (!(put instanceof Response.Ok<?>)) {
        throw new IllegalStateException("the edit failed: " + put);
      }
      long[] arrived = new long[count];
      int holding = 0;
      while (holding < count) {
        holding = 0;
        for (int i = 0; i < count; i++) {
          if (arrived[i] == 0) {
            Path file = dir.resolve("f" + i + "/team/topic-1/note-1.md");
            if (Conditions.quietly(() -> Files.readString(file).equals(edited))) {
              arrived[i] = (System.nanoTime() - start) / 1_000_000;
            }
          }
          holding += arrived[i] == 0 ? 0 : 1;
        }
        if ((System.nanoTime() - start) > DEADLINE.toNanos()) {
          throw new IllegalStateException(holding + " of " + count + " followers got the edit");
        }
        Thread.sleep(5);
      }
      Thread.sleep(1_000);
      Duration cpuSpent = cpu(server).minus(cpuBefore);
      List<Long> millis = new ArrayList<>();
      for (long value : arrived) {
        millis.add(value);
      }
      Collections.sort(millis);
      System.out.printf(
          "fan-out, %d followers, one edit: p50 %d ms, p99 %d ms, all %d ms; server CPU %d ms"
              + " for the edit and its %d reads%n",
          count,
          percentile(millis, 50),
          percentile(millis, 99),
          millis.get(millis.size() - 1),
          cpuSpent.toMillis(),
          count);
    } finally {
      for (SyncEngine engine : followers) {
        engine.close();
      }
    }
  }

  private static Duration cpu(ServerProcess server) {
    return ProcessHandle.of(server.pid())
        .flatMap(process -> process.info().totalCpuDuration())
        .orElse(Duration.ZERO);
  }

  private static long percentile(List<Long> sorted, int percent) {
    int index = Math.max(0, (int) Math.ceil(percent / 100.0 * sorted.size()) - 1);
    return sorted.get(index);
  }
}
