package dev.teammemory.daemon.bench;

import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.notes.NotesOutcome;
import dev.teammemory.daemon.notes.SessionNotes;
import dev.teammemory.daemon.recall.Recall;
import dev.teammemory.daemon.recall.RecallResult;
import dev.teammemory.daemon.recall.SurfacedMemories;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptBuilder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Measures the local memory engine without a model and prints the figures recorded in {@code
 * docs/benchmarks.md} ("Memory engine"):
 *
 * <ol>
 *   <li>recall latency (scan, rank, read, cut) over a memory folder of 1,000 topic files;
 *   <li>the time to update session notes from a 2 MB transcript (read, parse, estimate, write).
 * </ol>
 *
 * Goals: recall under 100 ms, notes under 1 s. Run after {@code ./mvnw -pl client-daemon
 * test-compile}:
 *
 * <pre>
 * cd client-daemon && ../mvnw -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt \
 *   -Dmdep.includeScope=test && java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *   dev.teammemory.daemon.bench.MemoryEngineBench [recall runs (200)] [notes runs (20)]
 * </pre>
 */
public final class MemoryEngineBench {

  private static final String[] TOPICS = {
    "checkout", "payments", "refunds", "auth", "jwt", "sessions", "deploy", "staging", "kubernetes",
        "grafana",
    "latency", "database", "migrations", "postgres", "redis", "cache", "ci", "pipeline", "flaky",
        "tests",
    "typescript", "react", "build", "bun", "docker", "api", "rate", "limits", "billing", "invoices"
  };
  private static final String[] TYPES = {"user", "feedback", "project", "reference"};
  private static final String[] QUERIES = {
    "fix the flaky checkout tests on ci",
    "deploy the payments service to staging",
    "why is api latency spiking, check grafana",
    "add a postgres migration for invoices",
    "refactor the react build to typescript strict mode"
  };

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private MemoryEngineBench() {}

  public static void main(String[] arguments) throws IOException {
    int recallRuns = arguments.length > 0 ? Integer.parseInt(arguments[0]) : 200;
    int notesRuns = arguments.length > 1 ? Integer.parseInt(arguments[1]) : 20;
    Path root = Files.createTempDirectory("tmem-memory-bench-");
    System.out.println(
        "machine: "
            + Runtime.getRuntime().availableProcessors()
            + " cores, Java "
            + System.getProperty("java.version")
            + ", load average "
            + String.format(
                Locale.ROOT,
                "%.1f",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
    try {
      recall(root.resolve("memory"), recallRuns);
      notes(root, notesRuns);
    } finally {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(file);
        }
      }
    }
  }

  private static void recall(Path memory, int runs) throws IOException {
    Random random = new Random(42);
    Instant now = Instant.now();
    for (int i = 0; i < 1_000; i++) {
      String a = TOPICS[random.nextInt(TOPICS.length)];
      String b = TOPICS[random.nextInt(TOPICS.length)];
      Path file = memory.resolve((i % 10 == 0 ? "team/" : "") + a + "_" + b + "_" + i + ".md");
      Files.createDirectories(file.getParent());
      Files.writeString(
          file,
          "---\nname: "
              + a
              + " and "
              + b
              + " "
              + i
              + "\ndescription: Notes about "
              + a
              + " when working on "
              + b
              + ", case "
              + i
              + "\ntype: "
              + TYPES[i % TYPES.length]
              + "\n---\n"
              + ("Body line about " + a + " and " + b + ".\n").repeat(20 + random.nextInt(200)));
      Files.setLastModifiedTime(file, FileTime.from(now.minusSeconds(random.nextInt(90 * 86_400))));
    }
    Recall recall = new Recall(new OfflineLanguageModel("benchmark"), Clock.systemUTC());
    int found = 0;
    for (int i = 0; i < 50; i++) {
      recall.recall(memory, QUERIES[i % QUERIES.length], List.of(), SurfacedMemories.NONE);
    }
    List<Double> millis = new ArrayList<>();
    List<Double> cpu = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      long startCpu = THREADS.getCurrentThreadCpuTime();
      RecallResult result =
          recall.recall(
              memory, QUERIES[i % QUERIES.length], List.of("Bash"), SurfacedMemories.NONE);
      cpu.add((THREADS.getCurrentThreadCpuTime() - startCpu) / 1e6);
      millis.add((System.nanoTime() - start) / 1e6);
      found += result.memories().size();
    }
    print(
        "recall over 1,000 topic files ("
            + runs
            + " runs, "
            + String.format(Locale.ROOT, "%.1f", found / (double) runs)
            + " memories each)",
        millis,
        cpu);
  }

  private static void notes(Path root, int runs) throws IOException {
    ClaudeLayout layout = new ClaudeLayout(root.resolve("config"), root.resolve("state"));
    String session = "bench0000-0000-4000-8000-000000000000";
    Path transcript = layout.transcript(Path.of("/work/app"), session);
    TranscriptBuilder builder = new TranscriptBuilder(session, "/work/app");
    Random random = new Random(7);
    int step = 0;
    while (true) {
      builder.user(
          "Step " + step + ": make module " + step + " handle empty invoices, then run its tests.");
      builder.toolCall(
          "Read",
          Map.of("file_path", "/work/app/src/module" + step + "/Invoice.java"),
          "class Invoice {}\n".repeat(60),
          false,
          40_000 + step * 10L);
      builder.toolCall(
          "Edit",
          Map.of(
              "file_path",
              "/work/app/src/module" + step + "/Invoice.java",
              "old_string",
              "class Invoice {}",
              "new_string",
              "final class Invoice {}"),
          "The file has been updated.",
          false,
          40_000 + step * 10L);
      boolean fails = random.nextInt(4) == 0;
      builder.toolCall(
          "Bash",
          Map.of("command", "./gradlew :module" + step + ":test"),
          (fails ? "FAILURE: Build failed with an exception.\n" : "BUILD SUCCESSFUL\n")
              + "> Task :test\n".repeat(30),
          fails,
          40_000 + step * 10L);
      builder.assistant(
          "Module "
              + step
              + " now handles empty invoices; tests "
              + (fails ? "still fail." : "pass."),
          40_000 + step * 10L);
      step++;
      if (step % 50 == 0 && builder.build().length() >= 2 * 1024 * 1024) {
        break;
      }
    }
    builder.writeTo(transcript);
    long bytes = Files.size(transcript);
    SessionNotes notes =
        new SessionNotes(layout, new OfflineLanguageModel("benchmark"), Clock.systemUTC());
    Path summary = ClaudeLayout.sessionNotesBeside(transcript);
    for (int i = 0; i < 3; i++) {
      notes.update(transcript, summary, true);
    }
    List<Double> parse = new ArrayList<>();
    List<Double> parseCpu = new ArrayList<>();
    List<Double> update = new ArrayList<>();
    List<Double> updateCpu = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      long startCpu = THREADS.getCurrentThreadCpuTime();
      Transcript.read(transcript);
      parseCpu.add((THREADS.getCurrentThreadCpuTime() - startCpu) / 1e6);
      parse.add((System.nanoTime() - start) / 1e6);
      start = System.nanoTime();
      startCpu = THREADS.getCurrentThreadCpuTime();
      NotesOutcome outcome = notes.update(transcript, summary, true);
      updateCpu.add((THREADS.getCurrentThreadCpuTime() - startCpu) / 1e6);
      update.add((System.nanoTime() - start) / 1e6);
      if (!(outcome instanceof NotesOutcome.Updated)) {
        throw new IllegalStateException("the update did not write the notes: " + outcome);
      }
    }
    String size = String.format(Locale.ROOT, "%.1f MB, %d steps", bytes / 1024.0 / 1024.0, step);
    print("reading a transcript (" + size + ")", parse, parseCpu);
    print("notes update from that transcript, offline (" + runs + " runs)", update, updateCpu);
  }

  /**
   * Wall-clock time, and the CPU time of the measuring thread: on a shared machine the wall clock
   * also counts waiting for a core, the CPU time only the work.
   */
  private static void print(String what, List<Double> millis, List<Double> cpuMillis) {
    List<Double> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    List<Double> cpu = new ArrayList<>(cpuMillis);
    Collections.sort(cpu);
    System.out.printf(
        Locale.ROOT,
        "%s: wall median %.1f ms, p95 %.1f ms, max %.1f ms; CPU median %.1f ms, p95 %.1f ms%n",
        what,
        sorted.get(sorted.size() / 2),
        percentile95(sorted),
        sorted.getLast(),
        cpu.get(cpu.size() / 2),
        percentile95(cpu));
  }

  private static double percentile95(List<Double> sorted) {
    return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.95) - 1));
  }
}
