package dev.teammemory.daemon.recall;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.teammemory.daemon.memory.MemoryLocation;
import java.util.List;
import java.util.Optional;

/**
 * What recall answered for a query, as {@code tmem recall --format json}, the local API and the MCP
 * server print it.
 *
 * @param sessionBudgetBytes the most memory content one session is shown
 * @param warnings settings that were ignored while finding the memory folder, and why
 * @param memoryOff what turned auto memory off, when it is off
 */
@JsonPropertyOrder({
  "query",
  "rankedBy",
  "candidates",
  "memories",
  "sessionBytes",
  "sessionBudgetBytes",
  "budgetExhausted"
})
public record RecallReport(
    String query,
    String rankedBy,
    int candidates,
    List<RecalledMemory> memories,
    long sessionBytes,
    long sessionBudgetBytes,
    boolean budgetExhausted,
    @JsonIgnore List<String> warnings,
    @JsonIgnore Optional<String> memoryOff) {

  public RecallReport {
    requireNonNull(query, "query is null");
    requireNonNull(rankedBy, "rankedBy is null");
    memories = List.copyOf(memories);
    warnings = List.copyOf(warnings);
    requireNonNull(memoryOff, "memoryOff is null");
  }

  static RecallReport of(String query, RecallResult result, MemoryLocation location) {
    return new RecallReport(
        query,
        result.rankedBy(),
        result.candidates(),
        result.memories(),
        result.sessionBytes(),
        Recall.MAX_SESSION_BYTES,
        result.budgetExhausted(),
        location.warnings(),
        Optional.empty());
  }

  static RecallReport memoryOff(String query, MemoryLocation location) {
    return new RecallReport(
        query,
        "nothing (auto memory is off)",
        0,
        List.of(),
        0,
        Recall.MAX_SESSION_BYTES,
        false,
        location.warnings(),
        location.disabledBy());
  }
}
