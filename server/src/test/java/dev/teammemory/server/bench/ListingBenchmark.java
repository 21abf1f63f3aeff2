package dev.teammemory.server.bench;

import dev.teammemory.server.PackagedServer;
import dev.teammemory.server.github.FakeGitHub;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Prints what one caller's listing of memory stores ({@code GET /v1/memory_stores?limit=1}) costs,
 * first on a server that holds only the caller's five repositories, then once 2,000 repositories of
 * another organisation are written beside them: a listing should cost what its caller can see,
 * whatever else the server holds. Four callers: a static token granted {@code acme/*}, one granted
 * a single repository, a GitHub user (against a {@link FakeGitHub}) whom GitHub lists the five
 * repositories, and, for reference, a static token granted {@code *}, who can see everything.
 *
 * <p>Against the packaged server ({@code tmem.server.jar}) on its embedded PostgreSQL; one request
 * at a time, so the figures are latencies. Not a test: it asserts nothing.
 *
 * <p>Run: {@code deploy/scripts/benchmark.sh listing} (optional: {@code -Dbench.requests=300}
 * measured per caller, {@code -Dbench.foreign=2000} repositories of the other organisation).
 */
public final class ListingBenchmark {

  private static final int OWN_REPOSITORIES = 5;
  private static final int WARM_UP = 100;
  private static final String LOADER = "loader-token";
  private static final String GITHUB_TOKEN = "gho_listing0benchmark0token";
  private static final String GITHUB_LOGIN = "listing-benchmark-user";

  /** The callers, by the name printed and their token. */
  private static final Map<String, String> CALLERS =
      Map.of(
          "static token, acme/*", "owner-token",
          "static token, one repository", "single-token",
          "GitHub token, 5 repositories", GITHUB_TOKEN,
          "static token, * (sees everything)", "everything-token");

  private static final List<String> ORDER =
      List.of(
          "static token, acme/*",
          "static token, one repository",
          "GitHub token, 5 repositories",
          "static token, * (sees everything)");

  private final int requests = Integer.getInteger("bench.requests", 300);
  private final int foreign = Integer.getInteger("bench.foreign", 2_000);
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private URI base;

  private ListingBenchmark() {}

  public static void main(String... args) throws Exception {
    new ListingBenchmark().run();
  }

  private void run() throws Exception {
    Path work = Files.createTempDirectory("tmem-listing-bench");
    Path tokens = work.resolve("tokens.txt");
    Files.writeString(
        tokens,
        String.join(
            "\n",
            LOADER + " loader * write",
            "owner-token olivia acme/* read",
            "single-token sam acme/repo-1 read",
            "everything-token eve * read",
            ""));
    try (FakeGitHub gitHub = new FakeGitHub()) {
      gitHub.addUser(GITHUB_TOKEN, GITHUB_LOGIN, 7_070);
      for (int i = 0; i < OWN_REPOSITORIES; i++) {
        gitHub.grant(GITHUB_LOGIN, "acme/repo-" + i, "read");
      }
      System.out.printf("Server log: %s%n", work.resolve("server.log"));
      try (PackagedServer server =
          PackagedServer.start(
              work.resolve("data"),
              work.resolve("server.log"),
              Map.of(
                  "TMEM_AUTH_STATIC_TOKENS_FILE", tokens.toString(),
                  "TMEM_AUTH_GITHUB_CLIENT_ID", "Iv1.listing0benchmark",
                  "TMEM_AUTH_GITHUB_API_URL", gitHub.apiUrl()))) {
        base = server.url();
        for (int i = 0; i < OWN_REPOSITORIES; i++) {
          write("acme/repo-" + i);
        }
        System.out.printf(
            "%n%d requests per caller after %d to warm up, one at a time; milliseconds%n",
            requests, WARM_UP);
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"caller", "repositories on the server", "median", "p95", "mean"});
        measureAll(rows, OWN_REPOSITORIES);
        System.out.printf("Writing %d repositories of another organisation…%n", foreign);
        writeForeign();
        measureAll(rows, OWN_REPOSITORIES + foreign);
        print(rows);
      }
    }
  }

  private void measureAll(List<String[]> rows, int repositories) throws Exception {
    for (String caller : ORDER) {
      double[] figures = measure(CALLERS.get(caller));
      rows.add(
          new String[] {
            caller,
            String.format(Locale.ROOT, "%,d", repositories),
            String.format(Locale.ROOT, "%.2f", figures[0]),
            String.format(Locale.ROOT, "%.2f", figures[1]),
            String.format(Locale.ROOT, "%.2f", figures[2])
          });
    }
  }

  /** Median, 95th percentile and mean of the listing's latency, in milliseconds. */
  private double[] measure(String token) throws Exception {
    HttpRequest listing =
        HttpRequest.newBuilder(base.resolve("/v1/memory_stores?limit=1"))
            .header("Authorization", "Bearer " + token)
            .timeout(Duration.ofSeconds(30))
            .build();
    for (int i = 0; i < WARM_UP; i++) {
      expectOk(http.send(listing, HttpResponse.BodyHandlers.ofString()));
    }
    double[] millis = new double[requests];
    for (int i = 0; i < requests; i++) {
      long start = System.nanoTime();
      expectOk(http.send(listing, HttpResponse.BodyHandlers.ofString()));
      millis[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(millis);
    return new double[] {
      millis[millis.length / 2],
      millis[(int) Math.ceil(millis.length * 0.95) - 1],
      Arrays.stream(millis).average().orElse(0)
    };
  }

  private void writeForeign() throws Exception {
    ExecutorService writers = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> written = new ArrayList<>();
      for (int i = 0; i < foreign; i++) {
        String repository = String.format(Locale.ROOT, "globex/repo-%04d", i);
        written.add(
            writers.submit(
                () -> {
                  write(repository);
                  return null;
                }));
      }
      for (Future<?> one : written) {
        one.get();
      }
    } finally {
      writers.shutdown();
    }
  }

  private void write(String repository) throws IOException, InterruptedException {
    HttpRequest put =
        HttpRequest.newBuilder(
                base.resolve("/api/claude_code/team_memory?repo=" + repository.replace("/", "%2F")))
            .header("Authorization", "Bearer " + LOADER)
            .header("Content-Type", "application/json")
            .PUT(
                HttpRequest.BodyPublishers.ofString("{\"entries\":{\"MEMORY.md\":\"# notes\\n\"}}"))
            .build();
    expectOk(http.send(put, HttpResponse.BodyHandlers.ofString()));
  }

  private static void expectOk(HttpResponse<String> response) {
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "the server answered " + response.statusCode() + ": " + response.body());
    }
  }

  private static void print(List<String[]> rows) {
    System.out.println();
    for (String[] row : rows) {
      System.out.printf("| %s |%n", String.join(" | ", row));
    }
  }
}
