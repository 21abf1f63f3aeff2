package dev.teammemory.daemon.memory;

import java.util.HashSet;
import java.util.Set;

/** How alike two memories are by their words: extraction and consolidation judge "same topic". */
public final class WordOverlap {

  private WordOverlap() {}

  /** Overlap of two word sets (Jaccard), 0 when either is empty. */
  public static double similarity(Set<String> a, Set<String> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    Set<String> both = new HashSet<>(a);
    both.retainAll(b);
    Set<String> either = new HashSet<>(a);
    either.addAll(b);
    return (double) both.size() / either.size();
  }
}
