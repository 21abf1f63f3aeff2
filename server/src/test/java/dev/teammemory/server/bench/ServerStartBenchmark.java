package dev.teammemory.server.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.teammemory.server.PackagedServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints what one start of the packaged server costs until it is ready, in processor time (its JVM
 * and its PostgreSQL) and wall time, under the JVM options the build gives the servers its
 * integration tests start ({@code it.jvm.options} in the parent pom) beside the default options:
 * the build starts dozens of servers, so this is most of what those options save. The three
 * configurations take turns, round after round, so that a busy machine weighs on each alike; the
 * archive's first start (which writes it) is left out. Not a test: it asserts nothing.
 *
 * <p>Run: {@code deploy/scripts/benchmark.sh server-start} (optional: {@code -Dbench.rounds=5}).
 */
public final class ServerStartBenchmark {

  /** The parent pom's {@code it.jvm.options}. */
  private static final List<String> QUICK =
      List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xlog:cds*=off");

  private final int rounds = Integer.getInteger("bench.rounds", 5);

  public static void main(String[] arguments) throws Exception {
    new ServerStartBenchmark().run();
  }

  private void run() throws IOException {
    Path work = Files.createTempDirectory("tmem-start-bench-");
    Path jar = PackagedServer.jar();
    Path archive = work.resolve("server.jsa");
    Map<String, List<String>> configurations = new LinkedHashMap<>();
    configurations.put("default JVM options", List.of());
    configurations.put("C1 and the serial collector", QUICK);
    List<String> withArchive = new ArrayList<>(QUICK);
    withArchive.add("-XX:+AutoCreateSharedArchive");
    withArchive.add("-XX:SharedArchiveFile=" + archive);
    configurations.put("the same and a class-data archive", withArchive);

    System.out.printf(
        "%d rounds of %s; writing the archive first%n", rounds, configurations.keySet());
    start(work, jar, "archive", withArchive);

    Map<String, List<Duration[]>> figures = new LinkedHashMap<>();
    for (int round = 1; round <= rounds; round++) {
      for (Map.Entry<String, List<String>> configuration : configurations.entrySet()) {
        Duration[] costs = start(work, jar, "round-" + round, configuration.getValue());
        figures.computeIfAbsent(configuration.getKey(), key -> new ArrayList<>()).add(costs);
        System.out.printf(
            "round %d, %s: %.2f s processor, %.2f s wall%n",
            round, configuration.getKey(), seconds(costs[0]), seconds(costs[1]));
      }
    }

    double baseline = median(figures.get("default JVM options"), 0);
    System.out.println();
    System.out.println(
        "| JVM options | processor time to ready (median) | wall time (median) | processor time vs default |");
    System.out.println("|---|---|---|---|");
    figures.forEach(
        (name, costs) ->
            System.out.printf(
                "| %s | %.2f s | %.2f s | %.2f |%n",
                name, median(costs, 0), median(costs, 1), median(costs, 0) / baseline));
  }

  /** One start with a fresh data folder: its processor and wall time until ready. */
  private static Duration[] start(Path work, Path jar, String name, List<String> options)
      throws IOException {
    Path folder = Files.createTempDirectory(work, name + "-");
    Path tokens = folder.resolve("tokens.txt");
    Files.writeString(tokens, "bench-token bench * write\n", UTF_8);
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("-Xmx384m");
    command.addAll(options);
    command.add("-jar");
    command.add(jar.toString());
    long started = System.nanoTime();
    try (PackagedServer server =
        PackagedServer.start(
            folder.resolve("data"),
            folder.resolve("server.log"),
            Map.of("TMEM_AUTH_STATIC_TOKENS_FILE", tokens.toString()),
            command)) {
      Duration wall = Duration.ofNanos(System.nanoTime() - started);
      return new Duration[] {server.processorTime(), wall};
    }
  }

  private static double median(List<Duration[]> costs, int index) {
    List<Double> values = costs.stream().map(cost -> seconds(cost[index])).sorted().toList();
    return values.get(values.size() / 2);
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }
}
