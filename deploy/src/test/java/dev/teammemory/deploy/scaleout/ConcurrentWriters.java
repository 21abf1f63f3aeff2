package dev.teammemory.deploy.scaleout;

import dev.teammemory.deploy.replicas.TeamMemoryHttp;
import dev.teammemory.deploy.replicas.TeamMemoryHttp.Reply;
import dev.teammemory.deploy.replicas.Verdicts;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Concurrent writers split across two replicas on one repository: each writer reads the repository
 * through its replica, increments a shared counter and adds a key of its own in one PUT with {@code
 * If-Match}, and retries on {@code 412}; every fourth round it also writes a key unconditionally.
 * Afterwards, through both replicas: no acknowledged write is lost, the counter equals the
 * acknowledged increments (no lost update), versions are exactly 1..n, each acknowledged once and
 * increasing for every writer, and {@code 412}s happened.
 *
 * <p>Run by {@code deploy/scripts/scale-out-proof.sh}; by hand, with two replicas up:
 *
 * <pre>
 * java -cp deploy/target/test-classes:$(cat deploy/target/test-classpath.txt) \
 *   dev.teammemory.deploy.scaleout.ConcurrentWriters URL_A URL_B TOKEN owner/repo [WRITERS] [ROUNDS]
 * </pre>
 *
 * Prints PASS/FAIL lines; exits 1 when a check fails, 2 on bad arguments.
 */
public final class ConcurrentWriters {

  private static final String COUNTER = "counter.md";
  private static final int MAX_TRIES = 50;
  private static final Duration DEADLINE = Duration.ofMinutes(3);

  /** One acknowledged PUT: who sent it, the version it made, and what it wrote. */
  private record Ack(int writer, long version, Map<String, String> entries) {}

  private final List<URI> replicas;
  private final String token;
  private final String repo;
  private final TeamMemoryHttp http = new TeamMemoryHttp(Duration.ofSeconds(30));
  private final List<Ack> acks = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger preconditionFailures = new AtomicInteger();
  private final AtomicInteger unexpected = new AtomicInteger();
  private final AtomicInteger gaveUp = new AtomicInteger();

  private ConcurrentWriters(List<URI> replicas, String token, String repo) {
    this.replicas = List.copyOf(replicas);
    this.token = token;
    this.repo = repo;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 4) {
      System.err.println(
          "usage: ConcurrentWriters URL_A URL_B TOKEN owner/repo [WRITERS] [ROUNDS]");
      System.exit(2);
    }
    int writers = args.length > 4 ? Integer.parseInt(args[4]) : 8;
    int rounds = args.length > 5 ? Integer.parseInt(args[5]) : 25;
    ConcurrentWriters proof =
        new ConcurrentWriters(List.of(URI.create(args[0]), URI.create(args[1])), args[2], args[3]);
    System.exit(proof.run(writers, rounds));
  }

  private int run(int writers, int rounds) throws Exception {
    System.out.printf(
        "writers: %d (%d through each replica), %d rounds each, repository %s%n",
        writers, writers / 2, rounds, repo);
    Instant deadline = Instant.now().plus(DEADLINE);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<?>> running = new ArrayList<>();
    for (int writer = 0; writer < writers; writer++) {
      int id = writer;
      running.add(pool.submit(() -> write(id, rounds, deadline)));
    }
    pool.shutdown();
    boolean finished = pool.awaitTermination(DEADLINE.toSeconds() + 30, TimeUnit.SECONDS);
    for (Future<?> writer : running) {
      if (finished) {
        writer.get();
      }
    }
    return verify(finished);
  }

  private void write(int writer, int rounds, Instant deadline) {
    URI replica = replicas.get(writer % replicas.size());
    try {
      for (int round = 0; round < rounds && Instant.now().isBefore(deadline); round++) {
        incrementAndAdd(writer, round, replica, deadline);
        if (round % 4 == 3) {
          Map<String, String> entries =
              Map.of("writer-" + writer + "/free-" + round + ".md", "free " + writer + " " + round);
          Reply reply = http.put(replica, token, repo, entries, Optional.empty());
          if (reply.status() == 200) {
            acks.add(new Ack(writer, reply.version(), entries));
          } else {
            unexpected.incrementAndGet();
            System.out.println("unexpected " + reply.status() + " on an unconditional PUT");
          }
        }
      }
    } catch (IOException e) {
      unexpected.incrementAndGet();
      System.out.println("writer " + writer + " failed: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Read, then write counter + 1 and a key of this round under If-Match; retry on 412. */
  private void incrementAndAdd(int writer, int round, URI replica, Instant deadline)
      throws IOException, InterruptedException {
    for (int attempt = 0; attempt < MAX_TRIES && Instant.now().isBefore(deadline); attempt++) {
      Reply current = http.get(replica, token, repo);
      long counter;
      String checksum;
      if (current.status() == 404) {
        counter = 0;
        checksum = TeamMemoryHttp.EMPTY_CHECKSUM;
      } else if (current.status() == 200) {
        counter = Long.parseLong(current.entry(COUNTER).orElse("0").strip());
        checksum = current.checksum();
      } else {
        unexpected.incrementAndGet();
        System.out.println("unexpected " + current.status() + " on a GET");
        return;
      }
      Map<String, String> entries = new LinkedHashMap<>();
      entries.put(COUNTER, Long.toString(counter + 1));
      entries.put(
          "writer-" + writer + "/round-" + round + ".md", "writer " + writer + " round " + round);
      Reply reply = http.put(replica, token, repo, entries, Optional.of(checksum));
      if (reply.status() == 200) {
        acks.add(new Ack(writer, reply.version(), entries));
        return;
      }
      if (reply.status() == 412) {
        preconditionFailures.incrementAndGet();
        // A little jitter, as a client backs off, so that one writer does not lose every race.
        Thread.sleep(ThreadLocalRandom.current().nextInt(1, 15));
        continue;
      }
      unexpected.incrementAndGet();
      System.out.println("unexpected " + reply.status() + " on a conditional PUT: " + reply.body());
      return;
    }
    gaveUp.incrementAndGet();
  }

  private int verify(boolean finished) throws IOException, InterruptedException {
    Verdicts verdicts = new Verdicts(System.out);
    List<Ack> all = List.copyOf(acks);
    long increments = all.stream().filter(ack -> ack.entries().containsKey(COUNTER)).count();
    System.out.printf(
        "acknowledged writes: %d (%d counter increments, %d unconditional); 412 responses: %d;"
            + " gave up after %d tries: %d%n",
        all.size(),
        increments,
        all.size() - increments,
        preconditionFailures.get(),
        MAX_TRIES,
        gaveUp.get());
    verdicts.check(
        finished && unexpected.get() == 0,
        "every writer finished without an unexpected response or error (" + unexpected.get() + ")");

    Reply throughA = http.get(replicas.get(0), token, repo);
    Reply throughB = http.get(replicas.get(1), token, repo);
    int missing = 0;
    Map<String, String> latest = new LinkedHashMap<>();
    all.stream()
        .sorted((left, right) -> Long.compare(left.version(), right.version()))
        .forEach(ack -> latest.putAll(ack.entries()));
    for (Map.Entry<String, String> entry : latest.entrySet()) {
      if (!throughA.entry(entry.getKey()).equals(Optional.of(entry.getValue()))
          || !throughB.entry(entry.getKey()).equals(Optional.of(entry.getValue()))) {
        missing++;
        System.out.println("missing or different: " + entry.getKey());
      }
    }
    verdicts.check(
        missing == 0 && !latest.isEmpty(),
        "no acknowledged write lost: all "
            + latest.size()
            + " keys hold their last acknowledged content through both replicas");

    long counter = Long.parseLong(throughA.entry(COUNTER).orElse("-1").strip());
    verdicts.check(
        counter == increments,
        COUNTER
            + " = "
            + counter
            + " = acknowledged increments "
            + increments
            + " (no lost update across replicas)");

    TreeSet<Long> versions = new TreeSet<>();
    all.forEach(ack -> versions.add(ack.version()));
    boolean contiguous =
        versions.size() == all.size() && versions.first() == 1 && versions.last() == all.size();
    boolean perWriter = true;
    Map<Integer, Long> lastVersion = new LinkedHashMap<>();
    synchronized (acks) {
      for (Ack ack : acks) {
        Long previous = lastVersion.put(ack.writer(), ack.version());
        // acks are appended in each writer's order; a writer's versions must only grow
        if (previous != null && previous >= ack.version()) {
          perWriter = false;
        }
      }
    }
    verdicts.check(
        contiguous && perWriter,
        "versions strictly increasing: the "
            + all.size()
            + " acknowledged writes made versions 1.."
            + versions.last()
            + ", each once; every writer saw its versions increase");
    verdicts.check(
        preconditionFailures.get() > 0,
        "412 Precondition Failed answered "
            + preconditionFailures.get()
            + " stale If-Match writes (conflicts detected across replicas)");
    verdicts.check(
        throughA.checksum().equals(throughB.checksum())
            && throughA.version() == throughB.version()
            && throughA.version() == versions.last(),
        "both replicas report version "
            + throughA.version()
            + " and checksum "
            + throughA.checksum());
    return verdicts.exitCode();
  }
}
