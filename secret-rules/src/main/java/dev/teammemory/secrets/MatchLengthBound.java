package dev.teammemory.secrets;

/**
 * The longest text, in UTF-16 code units, that a regex in RE2 syntax can match. The scanner runs a
 * rule only on a window of this size on either side of a keyword, so the bound must never be too
 * small: every construct is counted at its widest, and a character that may lie outside the Basic
 * Multilingual Plane (any negated or Unicode class, the dot) counts as two units.
 */
final class MatchLengthBound {

  /** A regex with unbounded repetition ({@code *}, {@code +}, {@code {n,}}). */
  static final int UNBOUNDED = Integer.MAX_VALUE;

  private static final long CAP = 1L << 30;

  private final String regex;
  private int position;

  private MatchLengthBound(String regex) {
    this.regex = regex;
  }

  /** The bound for {@code regex}, or {@link #UNBOUNDED}. */
  static int of(String regex) {
    MatchLengthBound parser = new MatchLengthBound(regex);
    long bound = parser.alternation();
    if (parser.position != regex.length()) {
      throw parser.error("unbalanced ')'");
    }
    return bound >= CAP ? UNBOUNDED : (int) bound;
  }

  private long alternation() {
    long max = sequence();
    while (position < regex.length() && regex.charAt(position) == '|') {
      position++;
      max = Math.max(max, sequence());
    }
    return max;
  }

  private long sequence() {
    long total = 0;
    while (position < regex.length()) {
      char c = regex.charAt(position);
      if (c == '|' || c == ')') {
        break;
      }
      total = Math.min(CAP, total + quantified(atom()));
    }
    return total;
  }

  private long atom() {
    char c = regex.charAt(position++);
    return switch (c) {
      case '(' -> group();
      case '[' -> characterClass();
      case '\\' -> escape();
      case '.' -> 2;
      case '^', '$' -> 0;
      default -> {
        if (Character.isHighSurrogate(c) && position < regex.length()) {
          position++;
          yield 2;
        }
        yield 1;
      }
    };
  }

  private long group() {
    if (position < regex.length() && regex.charAt(position) == '?') {
      position++;
      char kind = charAt(position);
      if (kind == 'P' || kind == '<') {
        int close = regex.indexOf('>', position);
        if (close < 0) {
          throw error("unterminated group name");
        }
        position = close + 1;
      } else {
        while (Character.isLetter(charAt(position)) || charAt(position) == '-') {
          position++;
        }
        if (charAt(position) == ')') {
          position++;
          return 0; // flags for the rest of the enclosing group, no text of its own
        }
        if (charAt(position) != ':') {
          throw error("unknown group syntax");
        }
        position++;
      }
    }
    long body = alternation();
    if (charAt(position) != ')') {
      throw error("missing ')'");
    }
    position++;
    return body;
  }

  private long characterClass() {
    boolean wide = false;
    if (charAt(position) == '^') {
      wide = true;
      position++;
    }
    boolean first = true;
    while (true) {
      if (position >= regex.length()) {
        throw error("missing ']'");
      }
      char c = regex.charAt(position);
      if (c == ']' && !first) {
        position++;
        return wide ? 2 : 1;
      }
      first = false;
      if (c == '[' && charAt(position + 1) == ':') {
        int close = regex.indexOf(":]", position + 2);
        if (close < 0) {
          throw error("unterminated POSIX class");
        }
        position = close + 2;
      } else if (c == '\\') {
        position++;
        wide |= escape() > 1;
      } else {
        wide |= c > 0x7f;
        position++;
      }
    }
  }

  /** Called after the backslash; returns the width of what the escape matches. */
  private long escape() {
    if (position >= regex.length()) {
      throw error("trailing backslash");
    }
    char c = regex.charAt(position++);
    switch (c) {
      case 'b', 'B', 'A', 'z' -> {
        return 0;
      }
      case 'd', 'w', 's' -> {
        return 1;
      }
      case 'D', 'W', 'S', 'C' -> {
        return 2;
      }
      case 'p', 'P' -> {
        if (charAt(position) == '{') {
          int close = regex.indexOf('}', position);
          if (close < 0) {
            throw error("unterminated Unicode class");
          }
          position = close + 1;
        } else {
          position++;
        }
        return 2;
      }
      case 'x' -> {
        int codePoint;
        if (charAt(position) == '{') {
          int close = regex.indexOf('}', position);
          if (close < 0) {
            throw error("unterminated \\x{...}");
          }
          codePoint = Integer.parseInt(regex.substring(position + 1, close), 16);
          position = close + 1;
        } else {
          codePoint = Integer.parseInt(regex.substring(position, position + 2), 16);
          position += 2;
        }
        return Character.charCount(codePoint);
      }
      case 'Q' -> {
        int close = regex.indexOf("\\E", position);
        int end = close < 0 ? regex.length() : close;
        long length = end - position;
        position = close < 0 ? end : close + 2;
        return length;
      }
      default -> {
        if (c >= '0' && c <= '7') {
          int digits = 1;
          while (digits < 3 && charAt(position) >= '0' && charAt(position) <= '7') {
            position++;
            digits++;
          }
        }
        return 1;
      }
    }
  }

  private long quantified(long atom) {
    if (position >= regex.length()) {
      return atom;
    }
    char c = regex.charAt(position);
    long result;
    if (c == '*' || c == '+') {
      position++;
      result = atom == 0 ? 0 : CAP;
    } else if (c == '?') {
      position++;
      result = atom;
    } else if (c == '{') {
      int close = regex.indexOf('}', position);
      String body = close < 0 ? "" : regex.substring(position + 1, close);
      if (!body.matches("\\d+(,\\d*)?")) {
        return atom; // a literal '{', counted as an atom of its own by the next call
      }
      position = close + 1;
      int comma = body.indexOf(',');
      if (comma < 0) {
        result = Math.min(CAP, atom * Long.parseLong(body));
      } else if (comma == body.length() - 1) {
        result = atom == 0 ? 0 : CAP;
      } else {
        result = Math.min(CAP, atom * Long.parseLong(body.substring(comma + 1)));
      }
    } else {
      return atom;
    }
    if (position < regex.length() && regex.charAt(position) == '?') {
      position++; // lazy: same bound
    }
    return result;
  }

  private char charAt(int index) {
    return index < regex.length() ? regex.charAt(index) : '\0';
  }

  private IllegalArgumentException error(String problem) {
    return new IllegalArgumentException(problem + " at index " + position + " of regex: " + regex);
  }
}
