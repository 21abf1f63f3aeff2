package dev.teammemory.secrets;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;

/**
 * Finds every occurrence of a set of ASCII keywords in one pass over a text: an Aho–Corasick
 * automaton compiled to a full transition table over case-folded ASCII, so each character costs one
 * table lookup whatever the number of keywords. A keyword written in lower case matches in any
 * case; one with an upper-case letter matches only as spelled, which the index checks at each hit.
 * A character outside ASCII reads as NUL, which no keyword contains. Immutable and thread-safe.
 */
final class KeywordIndex {

  private static final int ALPHABET = 128;
  private static final int SHIFT = 7;
  private static final int CHUNK = 8192;
  private static final byte[] FOLD = foldTable();

  private final String[] keywords;
  private final boolean[] exact;

  /**
   * Entry {@code (state << 7 | symbol)} holds the next state as {@code next << 8 | 1 if next ends a
   * keyword}: shifting right by one gives the next row's base, and the low bit says whether to look
   * at the outputs, so the common step touches one array.
   */
  private final int[] transitions;

  private final int[][] outputs;

  KeywordIndex(List<String> keywords) {
    this.keywords = keywords.toArray(String[]::new);
    this.exact = new boolean[this.keywords.length];
    List<int[]> children = new ArrayList<>();
    List<int[]> terminal = new ArrayList<>();
    children.add(newNode());
    terminal.add(new int[0]);
    for (int k = 0; k < this.keywords.length; k++) {
      String keyword = this.keywords[k];
      if (keyword.isEmpty()) {
        throw new IllegalArgumentException("empty keyword");
      }
      int state = 0;
      for (int i = 0; i < keyword.length(); i++) {
        char c = keyword.charAt(i);
        if (c >= ALPHABET || c == 0) {
          throw new IllegalArgumentException("keyword is not ASCII: " + keyword);
        }
        exact[k] |= c >= 'A' && c <= 'Z';
        int symbol = fold(c);
        if (children.get(state)[symbol] < 0) {
          children.get(state)[symbol] = children.size();
          children.add(newNode());
          terminal.add(new int[0]);
        }
        state = children.get(state)[symbol];
      }
      terminal.set(state, append(terminal.get(state), k));
    }

    int states = children.size();
    this.transitions = new int[states << SHIFT];
    this.outputs = new int[states][];
    int[] failure = new int[states];
    Queue<Integer> queue = new ArrayDeque<>();
    for (int symbol = 0; symbol < ALPHABET; symbol++) {
      int child = children.get(0)[symbol];
      transitions[symbol] = Math.max(child, 0);
      if (child > 0) {
        queue.add(child);
      }
    }
    outputs[0] = terminal.get(0);
    while (!queue.isEmpty()) {
      int state = queue.remove();
      int[] own = terminal.get(state);
      int[] inherited = outputs[failure[state]];
      outputs[state] = inherited.length == 0 ? own : concat(own, inherited);
      for (int symbol = 0; symbol < ALPHABET; symbol++) {
        int child = children.get(state)[symbol];
        int fallback = transitions[(failure[state] << SHIFT) | symbol];
        if (child > 0) {
          failure[child] = fallback;
          transitions[(state << SHIFT) | symbol] = child;
          queue.add(child);
        } else {
          transitions[(state << SHIFT) | symbol] = fallback;
        }
      }
    }
    for (int state = 0; state < states; state++) {
      if (outputs[state].length == 0) {
        outputs[state] = null;
      }
    }
    for (int i = 0; i < transitions.length; i++) {
      int next = transitions[i];
      transitions[i] = (next << (SHIFT + 1)) | (outputs[next] == null ? 0 : 1);
    }
  }

  int size() {
    return keywords.length;
  }

  String keyword(int index) {
    return keywords[index];
  }

  /**
   * Every occurrence, as pairs {@code (keyword index, start offset)} in the order their last
   * characters appear; overlapping occurrences are all reported.
   */
  int[] find(String text) {
    int[] hits = new int[16];
    int count = 0;
    int[] table = transitions;
    char[] chunk = new char[Math.min(CHUNK, text.length())];
    int base = 0;
    for (int from = 0, n = text.length(); from < n; from += CHUNK) {
      int length = Math.min(CHUNK, n - from);
      text.getChars(from, from + length, chunk, 0);
      for (int j = 0; j < length; j++) {
        char c = chunk[j];
        int entry = table[base | (c < ALPHABET ? FOLD[c] : 0)];
        base = entry >>> 1;
        if ((entry & 1) != 0) {
          int end = from + j;
          for (int k : outputs[base >>> SHIFT]) {
            int start = end - keywords[k].length() + 1;
            if (exact[k] && !spelledAt(text, keywords[k], start)) {
              continue;
            }
            if (count + 2 > hits.length) {
              hits = Arrays.copyOf(hits, hits.length * 2);
            }
            hits[count++] = k;
            hits[count++] = start;
          }
        }
      }
    }
    return Arrays.copyOf(hits, count);
  }

  /** Whether {@code keyword} occurs at {@code start} as spelled; short enough to compare inline. */
  private static boolean spelledAt(String text, String keyword, int start) {
    for (int i = 0; i < keyword.length(); i++) {
      if (text.charAt(start + i) != keyword.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static int fold(char c) {
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
  }

  private static byte[] foldTable() {
    byte[] table = new byte[ALPHABET];
    for (char c = 0; c < ALPHABET; c++) {
      table[c] = (byte) fold(c);
    }
    return table;
  }

  private static int[] newNode() {
    int[] node = new int[ALPHABET];
    Arrays.fill(node, -1);
    return node;
  }

  private static int[] append(int[] values, int value) {
    int[] copy = Arrays.copyOf(values, values.length + 1);
    copy[values.length] = value;
    return copy;
  }

  private static int[] concat(int[] first, int[] second) {
    int[] joined = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, joined, first.length, second.length);
    return joined;
  }
}
