package dev.teammemory.server.bench;

import dev.teammemory.server.PackagedServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Prints what the console's pages cost on a repository of 10,000 memories with a memory of as many
 * versions as retention keeps (50): each page's latency, one request at a time on loopback, which
 * bounds the server's time for it. Every page is a fixed number of statements, each reading a
 * bounded page (docs/console.md), so these figures should not grow with the repository.
 *
 * <p>Against the packaged server ({@code tmem.server.jar}) on its embedded PostgreSQL. Not a test:
 * it asserts nothing but that each page answers 200.
 *
 * <p>Run: {@code deploy/scripts/benchmark.sh console} (optional: {@code -Dbench.memories=10000},
 * {@code -Dbench.requests=50} measured per page).
 */
public final class ConsoleBenchmark {

  private static final String REPO = "acme/console-bench";
  private static final String TOKEN = "bench-token";
  private static final int WARM_UP = 10;
  private static final int VERSIONS = 50;
  private static final String[] TOPICS = {
    "deploys", "testing", "database", "review", "incidents", "release", "security", "onboarding"
  };

  private final int memories = Integer.getInteger("bench.memories", 10_000);
  private final int requests = Integer.getInteger("bench.requests", 50);
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
  private URI base;
  private String session;

  private ConsoleBenchmark() {}

  public static void main(String... args) throws Exception {
    new ConsoleBenchmark().run();
  }

  private void run() throws Exception {
    Path work = Files.createTempDirectory("tmem-console-bench");
    Path tokens = work.resolve("tokens.txt");
    Files.writeString(tokens, TOKEN + " bench * write\n");
    System.out.printf("Server log: %s%n", work.resolve("server.log"));
    try (PackagedServer server =
        PackagedServer.start(
            work.resolve("data"),
            work.resolve("server.log"),
            Map.of(
                "TMEM_AUTH_STATIC_TOKENS_FILE", tokens.toString(),
                "TMEM_LIMITS_MAX_ENTRIES", Integer.toString(memories + 10),
                "QUARKUS_LOG_CATEGORY__DEV_TEAMMEMORY_SERVER_LOGGING_REQUESTLOG__LEVEL", "WARN"),
            "512m")) {
      base = server.url();
      System.out.printf("Writing %,d memories and %d versions of one…%n", memories, VERSIONS);
      write();
      signIn();
      String repository = "/console/repos/" + REPO;
      String history = repository + "/memories/notes/long-lived.md/history";
      Map<String, String> pages = new LinkedHashMap<>();
      pages.put("repositories", "/console/");
      pages.put("repository, first 200 memories", repository);
      pages.put(
          "repository, 200 memories from the middle",
          repository + "?after=" + encode("topics/incidents/memory-05000.md"));
      pages.put("search, a word in 1/8 of the memories", repository + "?q=incidents");
      pages.put("search, a word in every memory", repository + "?q=remember");
      pages.put("search, a word in none", repository + "?q=zeppelin");
      pages.put("memory", repository + "/memories/topics/deploys/memory-00008.md");
      pages.put("history of a memory with 50 versions", history);
      pages.put("diff of versions 1 and 50 of it", history + "?from=" + first + "&to=" + last);
      pages.put("activity, newest 50", repository + "/activity");
      pages.put("activity, 50 from the middle", repository + "/activity?offset=5000");
      System.out.printf(
          "%n%d requests per page after %d to warm up, one at a time; milliseconds%n",
          requests, WARM_UP);
      System.out.printf("%-44s %8s %8s %8s %10s%n", "page", "median", "p95", "max", "bytes");
      for (Map.Entry<String, String> page : pages.entrySet()) {
        measure(page.getKey(), page.getValue());
      }
    }
  }

  private long first;
  private long last;

  private void write() throws Exception {
    int batch = 1_000;
    for (int from = 0; from < memories; from += batch) {
      StringBuilder body = new StringBuilder("{\"entries\":{");
      for (int i = from; i < Math.min(memories, from + batch); i++) {
        String topic = TOPICS[i % TOPICS.length];
        if (i > from) {
          body.append(',');
        }
        body.append(json(String.format(Locale.ROOT, "topics/%s/memory-%05d.md", topic, i)))
            .append(':')
            .append(json(memory(topic, i)));
      }
      body.append("}}");
      put(body.toString());
    }
    for (int version = 1; version <= VERSIONS; version++) {
      StringBuilder text = new StringBuilder("---\nname: Long lived\ntype: project\n---\n");
      for (int line = 0; line < 40; line++) {
        text.append("Line ")
            .append(line)
            .append(line % 7 == version % 7 ? " changed in version " + version : " stays")
            .append('\n');
      }
      long written = put("{\"entries\":{\"notes/long-lived.md\":" + json(text.toString()) + "}}");
      if (version == 1) {
        first = written;
      }
      last = written;
    }
  }

  private static String memory(String topic, int i) {
    return "---\nname: "
        + topic
        + " note "
        + i
        + "\ntype: project\ndescription: What we learned about "
        + topic
        + " ("
        + i
        + ")\n---\nRemember: "
        + topic
        + " rule number "
        + i
        + " keeps the team fast. ".repeat(8)
        + "\n";
  }

  private long put(String body) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(
                    base.resolve("/api/claude_code/team_memory?repo=" + encode(REPO)))
                .header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(120))
                .PUT(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException("PUT answered " + response.statusCode());
    }
    String text = response.body();
    int at = text.indexOf("\"version\":") + "\"version\":".length();
    int end = at;
    while (Character.isDigit(text.charAt(end))) {
      end++;
    }
    return Long.parseLong(text.substring(at, end));
  }

  private void signIn() throws Exception {
    HttpResponse<String> minted =
        http.send(
            HttpRequest.newBuilder(base.resolve("/api/console/sign-in-code"))
                .header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    String body = minted.body();
    int at = body.indexOf("/console/code/");
    String path = body.substring(at, body.indexOf('"', at));
    HttpResponse<Void> used =
        http.send(
            HttpRequest.newBuilder(base.resolve(path)).build(),
            HttpResponse.BodyHandlers.discarding());
    String cookie = used.headers().firstValue("Set-Cookie").orElseThrow();
    session = cookie.substring(0, cookie.indexOf(';'));
  }

  private void measure(String name, String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path))
            .header("Cookie", session)
            .timeout(Duration.ofSeconds(30))
            .build();
    int bytes = 0;
    for (int i = 0; i < WARM_UP; i++) {
      bytes = expectOk(http.send(request, HttpResponse.BodyHandlers.ofByteArray()), path);
    }
    double[] millis = new double[requests];
    for (int i = 0; i < requests; i++) {
      long start = System.nanoTime();
      expectOk(http.send(request, HttpResponse.BodyHandlers.ofByteArray()), path);
      millis[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(millis);
    System.out.printf(
        Locale.ROOT,
        "%-44s %8.1f %8.1f %8.1f %,10d%n",
        name,
        millis[millis.length / 2],
        millis[(int) Math.ceil(millis.length * 0.95) - 1],
        millis[millis.length - 1],
        bytes);
  }

  private static int expectOk(HttpResponse<byte[]> response, String path) {
    if (response.statusCode() != 200) {
      throw new IllegalStateException(path + " answered " + response.statusCode());
    }
    return response.body().length;
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static String json(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        default -> out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
