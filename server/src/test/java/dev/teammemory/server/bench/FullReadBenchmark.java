package dev.teammemory.server.bench;

import dev.teammemory.server.PackagedServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prints what full {@code team_memory} GETs of a repository at the default 50 MB limit cost the
 * server's heap: the packaged server at a small heap ({@code -Dbench.heap=256m}), one repository
 * filled to {@code -Dbench.megabytes=48} MB of 240 KB entries, then one full GET at a time and
 * {@code -Dbench.concurrent=4} at once, each body read to its end and checked (same bytes for every
 * reader). While the reads run, the server's heap in use is sampled from {@code /q/metrics} every
 * 50 ms; the peak, less the heap in use before, is what the reads held (garbage included, so an
 * upper bound).
 *
 * <p>Against any packaged server: {@code -Dtmem.server.jar=…/quarkus-run.jar} measures another
 * build (the figures before streaming came from main's jar). Not a test: it asserts nothing.
 *
 * <p>Run: {@code deploy/scripts/benchmark.sh full-read} (optional: {@code -Dbench.heap=256m
 * -Dbench.megabytes=48 -Dbench.concurrent=4 -Dbench.requests=5}).
 */
public final class FullReadBenchmark {

  private static final String REPO = "acme/full-read-bench";
  private static final String TOKEN = "bench-token";
  private static final int ENTRY_BYTES = 240_000;
  private static final int ENTRIES_PER_PUT = 4;
  private static final Pattern HEAP_USED =
      Pattern.compile("^jvm_memory_used_bytes\\{area=\"heap\"[^}]*} (\\S+)$", Pattern.MULTILINE);

  private final String heap = System.getProperty("bench.heap", "256m");
  private final int megabytes = Integer.getInteger("bench.megabytes", 48);
  private final int concurrent = Integer.getInteger("bench.concurrent", 4);
  private final int requests = Integer.getInteger("bench.requests", 5);
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private URI base;

  private FullReadBenchmark() {}

  public static void main(String... args) throws Exception {
    new FullReadBenchmark().run();
  }

  private void run() throws Exception {
    Path work = Files.createTempDirectory("tmem-full-read-bench");
    Path tokens = work.resolve("tokens.txt");
    Files.writeString(tokens, TOKEN + " bench * write\n");
    System.out.printf("Server: %s at -Xmx%s%n", System.getProperty("tmem.server.jar"), heap);
    System.out.printf("Server log: %s%n", work.resolve("server.log"));
    try (PackagedServer server =
        PackagedServer.start(
            work.resolve("data"),
            work.resolve("server.log"),
            Map.of(
                "TMEM_AUTH_STATIC_TOKENS_FILE",
                tokens.toString(),
                "QUARKUS_LOG_CATEGORY__DEV_TEAMMEMORY_SERVER_LOGGING_REQUESTLOG__LEVEL",
                "WARN"),
            heap)) {
      base = server.url();
      long written = fill();
      System.out.printf(
          "Repository: %,d entries, %,d content bytes%n%n", written / ENTRY_BYTES, written);
      System.out.printf(
          "%-28s %10s %12s %12s %22s%n",
          "reads", "statuses", "median ms", "max ms", "peak heap held (MB)");
      measure(1, requests);
      measure(concurrent, Math.max(1, requests / 2));
    }
  }

  /** Fills the repository with 240 KB entries, four a PUT (the body limit is 1 MiB). */
  private long fill() throws Exception {
    int entries = (int) ((long) megabytes * 1_000_000 / ENTRY_BYTES);
    long bytes = 0;
    for (int from = 0; from < entries; from += ENTRIES_PER_PUT) {
      StringBuilder body = new StringBuilder("{\"entries\":{");
      for (int i = from; i < Math.min(entries, from + ENTRIES_PER_PUT); i++) {
        if (i > from) {
          body.append(',');
        }
        String filler = Character.toString('a' + i % 26).repeat(ENTRY_BYTES - 16);
        body.append(String.format("\"notes/entry-%04d.md\":\"%s entry %05d\"", i, filler, i));
        bytes += ENTRY_BYTES;
      }
      HttpResponse<String> put =
          http.send(
              request("/api/claude_code/team_memory?repo=" + REPO)
                  .header("Content-Type", "application/json")
                  .PUT(HttpRequest.BodyPublishers.ofString(body.append("}}").toString()))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (put.statusCode() != 200) {
        throw new IllegalStateException("PUT answered " + put.statusCode() + ": " + put.body());
      }
    }
    return bytes;
  }

  /** {@code rounds} rounds of {@code readers} full GETs at once. */
  private void measure(int readers, int rounds) throws Exception {
    List<Long> millis = new ArrayList<>();
    List<Integer> statuses = new ArrayList<>();
    long peakHeld = 0;
    ExecutorService pool = Executors.newFixedThreadPool(readers + 1);
    try {
      for (int round = 0; round < rounds; round++) {
        System.gc(); // ours; the server's heap settles by itself between rounds
        long before = heapUsed();
        AtomicBoolean reading = new AtomicBoolean(true);
        AtomicLong peak = new AtomicLong(before);
        Future<?> sampler =
            pool.submit(
                () -> {
                  while (reading.get()) {
                    try {
                      peak.accumulateAndGet(heapUsed(), Math::max);
                      Thread.sleep(50);
                    } catch (InterruptedException e) {
                      return;
                    } catch (IOException e) {
                      // A sample missed under load; the next one counts.
                    }
                  }
                });
        List<Future<Read>> reads = new ArrayList<>();
        for (int reader = 0; reader < readers; reader++) {
          reads.add(pool.submit(this::read));
        }
        String digest = null;
        for (Future<Read> future : reads) {
          Read read = future.get();
          statuses.add(read.status());
          millis.add(read.millis());
          if (read.status() == 200) {
            if (digest != null && !digest.equals(read.digest())) {
              throw new IllegalStateException("two readers got different bodies");
            }
            digest = read.digest();
          }
        }
        reading.set(false);
        sampler.get();
        peakHeld = Math.max(peakHeld, peak.get() - before);
      }
    } finally {
      pool.shutdownNow();
    }
    long[] sorted = millis.stream().mapToLong(Long::longValue).sorted().toArray();
    System.out.printf(
        "%-28s %10s %12d %12d %22.1f%n",
        readers + (readers == 1 ? " full GET" : " full GETs at once") + " x" + rounds,
        summary(statuses),
        sorted[sorted.length / 2],
        sorted[sorted.length - 1],
        peakHeld / 1e6);
  }

  private record Read(int status, long millis, String digest) {}

  private Read read() throws Exception {
    long start = System.nanoTime();
    HttpResponse<InputStream> response =
        http.send(
            request("/api/claude_code/team_memory?repo=" + REPO).GET().build(),
            HttpResponse.BodyHandlers.ofInputStream());
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    long bytes = 0;
    try (InputStream body = response.body()) {
      byte[] buffer = new byte[64 * 1024];
      for (int read; (read = body.read(buffer)) >= 0; ) {
        sha256.update(buffer, 0, read);
        bytes += read;
      }
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    if (response.statusCode() == 200 && bytes < (long) megabytes * 900_000) {
      throw new IllegalStateException("a full GET ended after " + bytes + " bytes");
    }
    return new Read(response.statusCode(), millis, HexFormat.of().formatHex(sha256.digest()));
  }

  /** The server's heap in use (every heap pool, summed). */
  private long heapUsed() throws IOException, InterruptedException {
    String metrics =
        http.send(request("/q/metrics").GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    Matcher used = HEAP_USED.matcher(metrics);
    double sum = 0;
    while (used.find()) {
      sum += Double.parseDouble(used.group(1));
    }
    return (long) sum;
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(base.resolve(path))
        .timeout(Duration.ofMinutes(5))
        .header("Authorization", "Bearer " + TOKEN);
  }

  private static String summary(List<Integer> statuses) {
    return Arrays.toString(
            statuses.stream().distinct().sorted().map(s -> s + "x" + count(statuses, s)).toArray())
        .replace(" ", "");
  }

  private static long count(List<Integer> statuses, int status) {
    return statuses.stream().filter(s -> s == status).count();
  }
}
