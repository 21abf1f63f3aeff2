package dev.teammemory.deploy.load;

import dev.teammemory.deploy.load.LoadAndFaults.Fault;
import dev.teammemory.deploy.load.LoadAndFaults.Operation;
import dev.teammemory.deploy.load.LoadAndFaults.Requests;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/** The figures of one run: throughput, latency percentiles, errors, and each fault's toll. */
final class Report {

  private final Requests requests;
  private final List<Fault> faults;
  private final int seconds;
  private final List<String> replicaNames;
  private final List<Phase> phases;

  /**
   * A stretch of the run between faults, for its own latency row.
   *
   * @param label what ran then
   * @param from nanoseconds since the load started
   * @param until nanoseconds since the load started
   */
  record Phase(String label, long from, long until) {}

  Report(
      Requests requests,
      List<Fault> faults,
      int seconds,
      List<String> replicaNames,
      List<Phase> phases) {
    this.requests = requests;
    this.faults = List.copyOf(faults);
    this.seconds = seconds;
    this.replicaNames = List.copyOf(replicaNames);
    this.phases = List.copyOf(phases);
  }

  void print(PrintStream out) {
    int size = requests.size();
    long firstFault = faults.isEmpty() ? Long.MAX_VALUE : faults.getFirst().at();
    out.println();
    out.printf(
        "requests: %,d in %d s (%,.0f/s): %s%n",
        size, seconds, size / (double) seconds, countsByOperation(0, Long.MAX_VALUE));
    out.println();
    long warm = Math.min(TimeUnit.SECONDS.toNanos(10), firstFault);
    out.println(
        "latency of successful requests, ms (steady: from t=10 s, after warm-up, to the first"
            + " fault)");
    out.printf(
        "  %-46s %7s %8s %8s %8s %8s %7s%n", "", "count", "p50", "p90", "p99", "max", "req/s");
    for (Operation operation : Operation.values()) {
      latencyRow(out, "steady " + operation, operation, warm, firstFault);
    }
    latencyRow(out, "steady, all", null, warm, firstFault);
    for (Phase phase : phases) {
      latencyRow(out, phase.label(), null, phase.from(), phase.until());
    }
    latencyRow(out, "whole run, all", null, 0, TimeUnit.SECONDS.toNanos(seconds));
    out.println();
    out.printf("errors: %s%n", errors(0, Long.MAX_VALUE));
    out.printf("  before the first fault: %s%n", errors(0, firstFault));
    for (int index = 0; index < faults.size(); index++) {
      Fault fault = faults.get(index);
      long until = index + 1 < faults.size() ? faults.get(index + 1).at() : Long.MAX_VALUE;
      out.println();
      out.printf(
          "fault %d: %s at t=%.1f s (took %.1f s%s)%n",
          index + 1,
          fault.what(),
          seconds(fault.at()),
          seconds(fault.done() - fault.at()),
          fault.note().map(note -> "; " + note).orElse(""));
      // A request belongs to the fault during which it ended: one sent just before a kill and
      // refused by it counts for the kill.
      int failed = failures(fault.at(), until);
      long lastFailure = lastFailure(fault.at(), until);
      out.printf(
          "  requests that ended before the next fault: %d, failed: %d (%s)%n",
          count(fault.at(), until), failed, errors(fault.at(), until, true));
      if (failed > 0) {
        out.printf(
            "  failures ended from t=%.2f s to t=%.2f s: every request succeeded again %.2f s"
                + " after the fault began%n",
            seconds(firstFailure(fault.at(), until)),
            seconds(lastFailure),
            seconds(lastFailure - fault.at()));
      } else {
        out.println("  no request failed");
      }
      out.printf(
          "  longest time without a successful answer: %.2f s%n",
          seconds(
              longestStall(
                  fault.at(), Math.min(until, fault.at() + TimeUnit.SECONDS.toNanos(20)))));
      out.printf("  failed by replica: %s%n", failuresByReplica(fault.at(), until));
      timeline(out, fault.at(), lastFailure);
    }
  }

  private void latencyRow(
      PrintStream out, String label, Operation operation, long from, long until) {
    int[] latencies = latencies(operation, from, until);
    if (latencies.length == 0) {
      out.printf("  %-46s %7d%n", label, 0);
      return;
    }
    out.printf(
        "  %-46s %7d %8.1f %8.1f %8.1f %8.1f %7.0f%n",
        label,
        latencies.length,
        percentile(latencies, 50),
        percentile(latencies, 90),
        percentile(latencies, 99),
        latencies[latencies.length - 1] / 1000.0,
        latencies.length / seconds(until - from));
  }

  private int[] latencies(Operation operation, long from, long until) {
    int size = requests.size();
    int[] selected = new int[size];
    int count = 0;
    for (int row = 0; row < size; row++) {
      if (within(row, from, until)
          && Requests.succeeded(requests.outcome[row])
          && (operation == null || requests.operation[row] == operation.ordinal())) {
        selected[count++] = requests.latencyMicros[row];
      }
    }
    int[] latencies = Arrays.copyOf(selected, count);
    Arrays.sort(latencies);
    return latencies;
  }

  /** Nearest-rank percentile, in milliseconds. */
  private static double percentile(int[] sorted, int percent) {
    int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)] / 1000.0;
  }

  private String countsByOperation(long from, long until) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int row = 0; row < requests.size(); row++) {
      if (within(row, from, until)) {
        counts.merge(Operation.values()[requests.operation[row]].name(), 1, Integer::sum);
      }
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((name, count) -> parts.add(String.format("%,d %s", count, name)));
    return String.join(", ", parts);
  }

  private String errors(long from, long until) {
    return errors(from, until, false);
  }

  /** Failures by kind among requests that started, or with {@code byEnd} ended, in the range. */
  private String errors(long from, long until, boolean byEnd) {
    Map<String, Integer> kinds = new TreeMap<>();
    for (int row = 0; row < requests.size(); row++) {
      boolean inRange = byEnd ? endedWithin(row, from, until) : within(row, from, until);
      if (inRange && !Requests.succeeded(requests.outcome[row])) {
        kinds.merge(
            Requests.describe(requests.outcome[row])
                + " on "
                + Operation.values()[requests.operation[row]],
            1,
            Integer::sum);
      }
    }
    if (kinds.isEmpty()) {
      return "none";
    }
    List<String> parts = new ArrayList<>();
    kinds.forEach((kind, count) -> parts.add(count + " " + kind));
    return String.join(", ", parts);
  }

  private String failuresByReplica(long from, long until) {
    int[] failed = new int[replicaNames.size()];
    int[] total = new int[replicaNames.size()];
    for (int row = 0; row < requests.size(); row++) {
      if (endedWithin(row, from, until)) {
        total[requests.replica[row]]++;
        if (!Requests.succeeded(requests.outcome[row])) {
          failed[requests.replica[row]]++;
        }
      }
    }
    List<String> parts = new ArrayList<>();
    for (int index = 0; index < replicaNames.size(); index++) {
      parts.add(replicaNames.get(index) + " " + failed[index] + " of " + total[index]);
    }
    return String.join(", ", parts);
  }

  /** Requests and failures per 250 ms from a second before the fault to a second after recovery. */
  private void timeline(PrintStream out, long faultAt, long lastFailure) {
    long slot = TimeUnit.MILLISECONDS.toNanos(250);
    long from = Math.max(0, faultAt - TimeUnit.SECONDS.toNanos(1));
    long until = Math.max(lastFailure, faultAt) + TimeUnit.SECONDS.toNanos(1);
    StringBuilder line = new StringBuilder("  timeline (answers ok/failed per 250 ms from t=");
    line.append(String.format("%.2f s):", seconds(from)));
    int slots = 0;
    for (long start = from; start < until && slots < 48; start += slot, slots++) {
      int ok = 0;
      int failed = 0;
      for (int row = 0; row < requests.size(); row++) {
        if (endedWithin(row, start, start + slot)) {
          if (Requests.succeeded(requests.outcome[row])) {
            ok++;
          } else {
            failed++;
          }
        }
      }
      line.append(slots % 8 == 0 ? "\n    " : " ").append(ok).append('/').append(failed);
    }
    out.println(line);
  }

  /** Whether the request started in [from, until): for throughput and latency. */
  private boolean within(int row, long from, long until) {
    return requests.startNanos[row] >= from && requests.startNanos[row] < until;
  }

  /** Whether the request ended in [from, until): for what a fault did. */
  private boolean endedWithin(int row, long from, long until) {
    long end = end(row);
    return end >= from && end < until;
  }

  private long end(int row) {
    return requests.startNanos[row] + requests.latencyMicros[row] * 1_000L;
  }

  /** The longest stretch in [from, until) in which no request ended successfully. */
  private long longestStall(long from, long until) {
    long[] successes =
        IntStream.range(0, requests.size())
            .filter(
                row -> endedWithin(row, from, until) && Requests.succeeded(requests.outcome[row]))
            .mapToLong(this::end)
            .sorted()
            .toArray();
    long previous = from;
    long longest = 0;
    for (long success : successes) {
      longest = Math.max(longest, success - previous);
      previous = success;
    }
    return Math.max(longest, until - previous);
  }

  private int count(long from, long until) {
    int count = 0;
    for (int row = 0; row < requests.size(); row++) {
      if (endedWithin(row, from, until)) {
        count++;
      }
    }
    return count;
  }

  private int failures(long from, long until) {
    int count = 0;
    for (int row = 0; row < requests.size(); row++) {
      if (endedWithin(row, from, until) && !Requests.succeeded(requests.outcome[row])) {
        count++;
      }
    }
    return count;
  }

  private long firstFailure(long from, long until) {
    long first = Long.MAX_VALUE;
    for (int row = 0; row < requests.size(); row++) {
      if (endedWithin(row, from, until) && !Requests.succeeded(requests.outcome[row])) {
        first = Math.min(first, end(row));
      }
    }
    return first;
  }

  private long lastFailure(long from, long until) {
    long last = from;
    for (int row = 0; row < requests.size(); row++) {
      if (endedWithin(row, from, until) && !Requests.succeeded(requests.outcome[row])) {
        last = Math.max(last, end(row));
      }
    }
    return last;
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
