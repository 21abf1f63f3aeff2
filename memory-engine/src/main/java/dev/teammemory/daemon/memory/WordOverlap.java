package dev.teammemory.daemon.memory;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/** How alike two memories are by their words: extraction and consolidation judge "same topic". */
public final class WordOverlap {

  private WordOverlap() {}

  /**
   * The text as lowercase words separated by single spaces: punctuation and runs of anything that
   * is not a letter or a digit become one space. Two texts that say the same words compare equal.
   */
  public static String normalized(String text) {
    return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
  }

  /**
   * The words of a text that say something: its {@link #normalized} words of three letters or more
   * ("don't" gives "don"; "a", "of" and "it" count for nothing).
   */
  public static Set<String> words(String text) {
    Set<String> words = new HashSet<>();
    for (String word : normalized(text).split(" ")) {
      if (word.length() >= 3) {
        words.add(word);
      }
    }
    return words;
  }

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
