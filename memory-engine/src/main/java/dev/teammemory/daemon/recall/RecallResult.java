package dev.teammemory.daemon.recall;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What recall found for a query.
 *
 * @param rankedBy how the memories were picked, for a person reading the output
 * @param candidates topic files that were eligible (not surfaced before)
 * @param sessionBytes content surfaced in the session, this result included
 * @param budgetExhausted whether the session's budget stopped memories from being surfaced
 */
public record RecallResult(
    List<RecalledMemory> memories,
    String rankedBy,
    int candidates,
    long sessionBytes,
    boolean budgetExhausted) {

  public RecallResult {
    memories = List.copyOf(memories);
    requireNonNull(rankedBy, "rankedBy is null");
  }
}
