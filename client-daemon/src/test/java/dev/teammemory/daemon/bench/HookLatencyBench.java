package dev.teammemory.daemon.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.hook.HookInstallCommand;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.testing.CommandRun;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How long the agent waits for each hook, measured as the agent runs them: {@code sh -c '<the
 * installed command>'} with the hook's JSON on stdin, until the process ends. Two setups side by
 * side: a running tmem (a {@code tmem api} process, the local API {@code tmem daemon} also serves)
 * answering through the shim, and no daemon, where the shim falls back to starting tmem's JVM.
 * Prints p50 and p95 in milliseconds for SessionStart, UserPromptSubmit and Stop; goal: p50 ≤ 50 ms
 * with a daemon. Figures in {@code docs/benchmarks.md} ("Hook latency").
 *
 * <pre>
 * ./mvnw -B -ntp -q -pl client-daemon -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
 * (. .mvn/find-jdk.sh &amp;&amp; cd client-daemon &amp;&amp; "$JAVA_HOME/bin/java" \
 *   -cp target/test-classes:target/classes:"$(cat target/cp.txt)" \
 *   dev.teammemory.daemon.bench.HookLatencyBench [runs with a daemon (50)] [runs without (10)])
 * </pre>
 *
 * <p>tmem is started with this program's class path; with {@code TMEM_JAR=<path to tmem.jar>} it is
 * started as {@code java -jar} instead, as an installed tmem is.
 */
public final class HookLatencyBench {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int WARMUP = 5;
  private static final List<String> EVENTS = List.of("SessionStart", "UserPromptSubmit", "Stop");

  private HookLatencyBench() {}

  public static void main(String[] args) throws Exception {
    int daemonRuns = args.length > 0 ? Integer.parseInt(args[0]) : 50;
    int jvmRuns = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    Path home = Files.createTempDirectory("tmem-hook-bench");
    Bench bench = new Bench(home);
    bench.memories();
    Map<String, String> hooks = bench.install(tmemCommand());
    Process api = bench.startApi();
    Map<String, List<Double>> withDaemon;
    try {
      withDaemon = bench.measure(hooks, daemonRuns);
    } finally {
      api.destroy();
      api.waitFor(10, TimeUnit.SECONDS);
    }
    Files.deleteIfExists(bench.state.resolve("api.json"));
    Map<String, List<Double>> withoutDaemon = bench.measure(hooks, jvmRuns);

    System.out.printf(
        Locale.ROOT,
        "hook latency (ms), %d runs with a daemon, %d without, after %d warm-up runs each;"
            + " %s; %s%n",
        daemonRuns,
        jvmRuns,
        WARMUP,
        System.getenv("TMEM_JAR") != null ? "tmem.jar" : "class path",
        Runtime.version());
    System.out.printf(
        Locale.ROOT,
        "%-18s %14s %14s %14s %14s%n",
        "hook",
        "daemon p50",
        "daemon p95",
        "no daemon p50",
        "no daemon p95");
    for (String event : EVENTS) {
      System.out.printf(
          Locale.ROOT,
          "%-18s %14.1f %14.1f %14.1f %14.1f%n",
          event,
          percentile(withDaemon.get(event), 50),
          percentile(withDaemon.get(event), 95),
          percentile(withoutDaemon.get(event), 50),
          percentile(withoutDaemon.get(event), 95));
    }
    // Background Stop work (detached JVMs, the API's queue) is left to finish on its own.
  }

  /** How the hooks start tmem when no daemon answers. */
  private static String tmemCommand() {
    String java = quoted(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    String jar = System.getenv("TMEM_JAR");
    if (jar != null) {
      return java + " -jar " + quoted(Path.of(jar).toAbsolutePath().toString());
    }
    return java + " -cp " + quoted(absoluteClassPath()) + " dev.teammemory.daemon.cli.Tmem";
  }

  /** The class path with each entry absolute: hooks run in the agent's working directory. */
  private static String absoluteClassPath() {
    return java.util.Arrays.stream(
            System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .filter(entry -> !entry.isEmpty())
        .map(entry -> Path.of(entry).toAbsolutePath().toString())
        .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
  }

  /** One word for {@code sh}, in single quotes. */
  private static String quoted(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }

  static double percentile(List<Double> values, int percent) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int index = (int) Math.ceil(percent / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(index, sorted.size() - 1)));
  }

  private static final class Bench {

    final Path home;
    final Path project;
    final Path memory;
    final Path state;
    final Path transcript;
    final Map<String, String> variables = new HashMap<>();

    Bench(Path home) throws IOException {
      this.home = home;
      this.project = Files.createDirectories(home.resolve("app"));
      this.memory = Files.createDirectories(home.resolve("memory"));
      this.state = home.resolve("state/tmem");
      this.transcript = home.resolve(".claude/projects/-app/session-1.jsonl");
      variables.put("HOME", home.toString());
      variables.put("PATH", System.getenv("PATH"));
      variables.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
      variables.put("XDG_STATE_HOME", home.resolve("state").toString());
      variables.put(MemoryLocation.OVERRIDE_VARIABLE, memory.toString());
      variables.put("TMEM_OFFLINE", "1");
    }

    /** A team of 120 memories with its index, and a short session transcript for Stop. */
    void memories() throws IOException {
      Path team = Files.createDirectories(memory.resolve("team"));
      StringBuilder index = new StringBuilder();
      String[] topics = {"deploy", "database", "testing", "billing", "auth", "ci"};
      for (int n = 1; n <= 120; n++) {
        String topic = topics[n % topics.length];
        String name = topic + "-note-" + n;
        Files.writeString(
            team.resolve(name + ".md"),
            "---\nname: "
                + name
                + "\ndescription: how the team handles "
                + topic
                + " case "
                + n
                + "\nmetadata:\n  type: project\n---\n\nFor "
                + topic
                + " case "
                + n
                + ", follow the runbook step "
                + n
                + ".\n");
        index.append("- [").append(name).append("](").append(name).append(".md) — ");
        index.append(topic).append(" case ").append(n).append('\n');
      }
      Files.writeString(team.resolve("MEMORY.md"), index);
      HandMadeTranscript session = new HandMadeTranscript("session-1", project.toString());
      session.user("Install the dependencies.");
      session.assistant("Running npm install.");
      session.user("No, use bun instead of npm.");
      session.assistant("Switched to bun.");
      session.write(transcript);
    }

    Map<String, String> install(String tmem) throws IOException {
      CommandRun install = new CommandRun();
      if (install.run(
              new HookInstallCommand(new Environment(variables, home, home)), "--command", tmem)
          != 0) {
        throw new IllegalStateException("tmem hook install failed: " + install.err());
      }
      JsonNode hooks = JSON.readTree(home.resolve(".claude/settings.json").toFile()).path("hooks");
      Map<String, String> commands = new LinkedHashMap<>();
      hooks
          .properties()
          .forEach(
              event ->
                  commands.put(
                      event.getKey(),
                      event.getValue().get(0).path("hooks").get(0).path("command").asText()));
      return commands;
    }

    /** {@code tmem api} in a process of its own; returns once it has published its address. */
    Process startApi() throws IOException, InterruptedException {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      String jar = System.getenv("TMEM_JAR");
      if (jar != null) {
        command.addAll(List.of("-jar", jar));
      } else {
        command.addAll(
            List.of(
                "-cp", System.getProperty("java.class.path"), "dev.teammemory.daemon.cli.Tmem"));
      }
      command.add("api");
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(home.resolve("api.log").toFile());
      builder.environment().clear();
      builder.environment().putAll(variables);
      Process process = builder.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!Files.exists(state.resolve("api.json"))) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "tmem api did not start: " + Files.readString(home.resolve("api.log")));
        }
        Thread.sleep(20);
      }
      return process;
    }

    Map<String, List<Double>> measure(Map<String, String> hooks, int runs) throws Exception {
      Map<String, List<Double>> millis = new LinkedHashMap<>();
      for (String event : EVENTS) {
        List<Double> times = new ArrayList<>();
        for (int run = 0; run < WARMUP + runs; run++) {
          double elapsed = run(hooks.get(event), input(event, run));
          if (run >= WARMUP) {
            times.add(elapsed);
          }
        }
        millis.put(event, times);
      }
      return millis;
    }

    private byte[] input(String event, int run) throws IOException {
      Map<String, Object> input = new HashMap<>();
      // A session per run, so recall has something new to give every time.
      input.put("session_id", "session-" + run);
      input.put("cwd", project.toString());
      input.put("hook_event_name", event);
      switch (event) {
        case "SessionStart" -> input.put("source", "startup");
        case "UserPromptSubmit" ->
            input.put(
                "prompt", "the deploy failed on ci, how does the team handle database case 7");
        case "Stop" -> {
          input.put("transcript_path", transcript.toString());
          input.put("stop_hook_active", false);
        }
        default -> throw new IllegalArgumentException(event);
      }
      return JSON.writeValueAsBytes(input);
    }

    /** Milliseconds from starting the hook command until it exits. */
    private double run(String command, byte[] input) throws Exception {
      ProcessBuilder builder =
          new ProcessBuilder("sh", "-c", command)
              .directory(project.toFile())
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD);
      builder.environment().clear();
      builder.environment().putAll(variables);
      long start = System.nanoTime();
      Process process = builder.start();
      try (OutputStream stdin = process.getOutputStream()) {
        stdin.write(input);
      }
      process.waitFor();
      double elapsed = (System.nanoTime() - start) / 1e6;
      if (process.exitValue() != 0) {
        throw new IllegalStateException(command + " exited " + process.exitValue());
      }
      return elapsed;
    }
  }
}
