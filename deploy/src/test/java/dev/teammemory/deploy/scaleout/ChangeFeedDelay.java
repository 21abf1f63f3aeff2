package dev.teammemory.deploy.scaleout;

import dev.teammemory.deploy.replicas.TeamMemoryHttp;
import dev.teammemory.deploy.replicas.TeamMemoryHttp.Reply;
import dev.teammemory.deploy.replicas.Verdicts;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A change made through one replica reaches a subscriber of the other's change feed: a client
 * long-polls {@code /changes} on replica B, waits until its poll is parked there, writes through
 * replica A, and measures how long B took to answer; then the other way round. A replica learns of
 * the other's writes only through PostgreSQL {@code LISTEN/NOTIFY}, so a delay of milliseconds (not
 * the listener's periodic check) shows the fan-out works.
 *
 * <pre>
 * java -cp deploy/target/test-classes:$(cat deploy/target/test-classpath.txt) \
 *   dev.teammemory.deploy.scaleout.ChangeFeedDelay URL_A URL_B TOKEN owner/repo [ROUNDS]
 * </pre>
 *
 * Prints each delay and PASS/FAIL lines; exits 1 when a change took 5 s or more, or never came.
 */
public final class ChangeFeedDelay {

  private static final Duration WITHIN = Duration.ofSeconds(5);

  /** How long the poll gets to reach the server and park before the write goes out. */
  private static final Duration PARK = Duration.ofMillis(1500);

  public static void main(String[] args) throws Exception {
    if (args.length < 4) {
      System.err.println("usage: ChangeFeedDelay URL_A URL_B TOKEN owner/repo [ROUNDS]");
      System.exit(2);
    }
    URI a = URI.create(args[0]);
    URI b = URI.create(args[1]);
    String token = args[2];
    String repo = args[3];
    int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 5;
    TeamMemoryHttp http = new TeamMemoryHttp(Duration.ofSeconds(30));
    Verdicts verdicts = new Verdicts(System.out);
    List<Duration> delays = new ArrayList<>();
    boolean allDelivered = true;
    for (int round = 0; round < rounds; round++) {
      boolean forward = round % 2 == 0;
      URI writeThrough = forward ? a : b;
      URI subscribeThrough = forward ? b : a;
      Optional<Duration> delay = measure(http, writeThrough, subscribeThrough, token, repo, round);
      String direction = forward ? "A -> B" : "B -> A";
      if (delay.isPresent()) {
        delays.add(delay.get());
        System.out.printf(
            "round %d: write through %s, seen by the change feed of %s after %d ms%n",
            round + 1, direction.substring(0, 1), direction.substring(5), delay.get().toMillis());
      } else {
        allDelivered = false;
        System.out.printf(
            "round %d (%s): the change never reached the subscriber%n", round + 1, direction);
      }
    }
    long max = delays.stream().mapToLong(Duration::toMillis).max().orElse(-1);
    verdicts.check(
        allDelivered && max >= 0 && max < WITHIN.toMillis(),
        "a change through one replica reached a change-feed subscriber of the other within "
            + max
            + " ms at most ("
            + delays.size()
            + " of "
            + rounds
            + " rounds, both directions; limit "
            + WITHIN.toSeconds()
            + " s)");
    System.exit(verdicts.exitCode());
  }

  private static Optional<Duration> measure(
      TeamMemoryHttp http,
      URI writeThrough,
      URI subscribeThrough,
      String token,
      String repo,
      int round)
      throws Exception {
    Reply before = http.hashes(subscribeThrough, token, repo);
    String since = before.status() == 404 ? TeamMemoryHttp.EMPTY_CHECKSUM : before.checksum();
    CompletableFuture<Reply> feed =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return http.changes(subscribeThrough, token, repo, since, 30);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(PARK.toMillis());
    if (feed.isDone()) {
      System.out.println("the feed answered before the write: " + feed.get().status());
      return Optional.empty();
    }
    long sent = System.nanoTime();
    Reply written =
        http.put(
            writeThrough,
            token,
            repo,
            Map.of("feed/round-" + round + ".md", "change " + round + " at " + sent),
            Optional.empty());
    if (written.status() != 200) {
      System.out.println("the write failed: " + written.status() + " " + written.body());
      return Optional.empty();
    }
    try {
      Reply seen = feed.get(WITHIN.toSeconds() * 6, TimeUnit.SECONDS);
      long arrived = System.nanoTime();
      if (seen.status() != 200 || !seen.checksum().equals(written.checksum())) {
        System.out.println(
            "the feed answered "
                + seen.status()
                + " with checksum "
                + seen.checksum()
                + ", not the write's "
                + written.checksum());
        return Optional.empty();
      }
      return Optional.of(Duration.ofNanos(arrived - sent));
    } catch (ExecutionException | TimeoutException e) {
      System.out.println("the feed failed: " + e);
      return Optional.empty();
    }
  }
}
