package dev.teammemory.secrets;

import static java.util.Objects.requireNonNull;

import com.google.re2j.Pattern;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One secret rule, read from the rule file: a regex whose capture group is the secret, the keywords
 * that gate it, and what it lets through. Immutable.
 */
public final class Rule {

  private static final int IDENTIFIER_CONTEXT = 50;
  private static final int ASSIGNMENT_REACH = 48;

  private final String id;
  private final String label;
  private final boolean inDefaultSet;
  private final List<String> keywords;
  private final String regex;
  private final Pattern pattern;
  private final Pattern afterOneCharacter;
  private final Pattern atTextStart;
  private final boolean keywordAtStart;
  private final boolean startsAtSeparator;
  private final boolean assignmentFollowsKeyword;
  private final double minimumEntropy;
  private final int maxMatchLength;
  private final boolean truncatesAtWindow;
  private final Allowlist allowlist;
  private final boolean requiresDigit;
  private final boolean fallback;
  private final List<String> matchExamples;
  private final List<String> noMatchExamples;

  Rule(
      String id,
      String label,
      boolean inDefaultSet,
      List<String> keywords,
      String regex,
      boolean keywordAtStart,
      boolean assignmentFollowsKeyword,
      double minimumEntropy,
      int maxMatchLength,
      boolean truncatesAtWindow,
      Allowlist allowlist,
      boolean requiresDigit,
      boolean fallback,
      List<String> matchExamples,
      List<String> noMatchExamples) {
    this.id = requireNonNull(id, "id is null");
    this.label = requireNonNull(label, "label is null");
    this.inDefaultSet = inDefaultSet;
    this.keywords = List.copyOf(requireNonNull(keywords, "keywords is null"));
    this.regex = requireNonNull(regex, "regex is null");
    this.pattern = Pattern.compile(regex);
    this.keywordAtStart = keywordAtStart;
    this.assignmentFollowsKeyword = assignmentFollowsKeyword;
    this.startsAtSeparator =
        RuleFile.LEADING_FLAGS
            .matcher(regex)
            .replaceFirst("")
            .startsWith(RuleFile.SEPARATOR_BEFORE);
    // Anchored forms: the first consumes the character before the keyword, so that a separator or
    // ^ at the rule's start sees the real neighbour (a leading separator consumes it itself);
    // wrapping keeps the rule's flags and group numbers.
    this.afterOneCharacter =
        Pattern.compile((startsAtSeparator ? "^(?:" : "^(?s:.)(?:") + regex + ")");
    this.atTextStart = Pattern.compile("^(?:" + regex + ")");
    this.minimumEntropy = minimumEntropy;
    this.maxMatchLength = maxMatchLength;
    this.truncatesAtWindow = truncatesAtWindow;
    this.allowlist = requireNonNull(allowlist, "allowlist is null");
    this.requiresDigit = requiresDigit;
    this.fallback = fallback;
    this.matchExamples = List.copyOf(requireNonNull(matchExamples, "matchExamples is null"));
    this.noMatchExamples = List.copyOf(requireNonNull(noMatchExamples, "noMatchExamples is null"));
    if (this.keywords.isEmpty()) {
      throw new IllegalArgumentException("rule has no keywords: " + id);
    }
    if (maxMatchLength < 1) {
      throw new IllegalArgumentException("rule " + id + " has max match length " + maxMatchLength);
    }
  }

  /** The gitleaks rule id this rule derives from, e.g. {@code github-pat}. */
  public String id() {
    return id;
  }

  /** The rule's name for people, e.g. {@code GitHub PAT}. */
  public String label() {
    return label;
  }

  /** The rule's regex in RE2 syntax, after the rule file's macros are expanded. */
  public String regex() {
    return regex;
  }

  /**
   * The keywords that gate the rule; a lower-case keyword matches in any case, one with an
   * upper-case letter only as spelled.
   */
  public List<String> keywords() {
    return keywords;
  }

  /** Whether the rule belongs to {@link SecretScanner#defaultRules()}. */
  public boolean inDefaultSet() {
    return inDefaultSet;
  }

  @Override
  public String toString() {
    return "Rule[" + id + "]";
  }

  Pattern pattern() {
    return pattern;
  }

  /**
   * Whether every match begins at one of the keywords, so the rule runs anchored at each keyword
   * rather than searching a window around it.
   */
  boolean keywordAtStart() {
    return keywordAtStart;
  }

  /**
   * Whether the regex opens with the rule file's separator (a {@code \b} in the file), so an
   * anchored match can only begin after a character that is not an ASCII letter or digit: a test
   * that costs less than running the regex.
   */
  boolean startsAtSeparator() {
    return startsAtSeparator;
  }

  /**
   * Whether the regex is a keyword, then the rule file's {@code {{assign}}} (a short name tail,
   * maybe quotes or spaces, then {@code = : > | ? ,}): most keyword occurrences in prose fail that,
   * and {@link #assignmentCanFollow} says so without running the regex.
   */
  boolean assignmentFollowsKeyword() {
    return assignmentFollowsKeyword;
  }

  /**
   * A necessary condition for {@code {{assign}}} after a keyword ending at {@code keywordEnd}: an
   * operator character comes within {@value #ASSIGNMENT_REACH} characters, with only name, space
   * and quote characters before it. The reach covers the macro's 20 + 3 characters plus what a rule
   * puts between its keyword and the macro ({@code snyk[_.-]?(?:api[_.-]?)?token}).
   */
  static boolean assignmentCanFollow(String text, int keywordEnd) {
    int limit = Math.min(text.length(), keywordEnd + ASSIGNMENT_REACH);
    for (int i = keywordEnd; i < limit; i++) {
      char c = text.charAt(i);
      switch (c) {
        case '=', '>', ':', '|', '?', ',' -> {
          return true;
        }
        case ' ', '\t', '\n', '\r', '\f', '.', '-', '_', '\'', '"' -> {}
        default -> {
          if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
            return false;
          }
        }
      }
    }
    return false;
  }

  /** The regex anchored one character into its input, that character being any. */
  Pattern afterOneCharacter() {
    return afterOneCharacter;
  }

  /** The regex anchored at the start of its input. */
  Pattern atTextStart() {
    return atTextStart;
  }

  /** The longest match the regex can produce, in UTF-16 code units; it bounds the scan window. */
  int maxMatchLength() {
    return maxMatchLength;
  }

  /**
   * Whether {@link #maxMatchLength()} was declared for a regex with unbounded repetition, so that a
   * match reaching the end of its window is a long token cut short rather than an artefact.
   */
  boolean truncatesAtWindow() {
    return truncatesAtWindow;
  }

  boolean fallback() {
    return fallback;
  }

  List<String> matchExamples() {
    return matchExamples;
  }

  List<String> noMatchExamples() {
    return noMatchExamples;
  }

  /** Whether a secret this rule's regex matched is worth reporting, before global allowlists. */
  boolean accepts(String secret, String match) {
    if (minimumEntropy > 0 && shannonEntropy(secret) <= minimumEntropy) {
      return false;
    }
    if (requiresDigit && !containsDigit(secret)) {
      return false;
    }
    return !allowlist.allows(secret, match);
  }

  /**
   * Where the identifier a match starts in begins: up to 50 of {@code [A-Za-z0-9_.-]} before the
   * match, which allowlists see with the match (gitleaks' {@code [\w.-]{0,50}?} prefix).
   */
  static int identifierStart(String text, int matchStart) {
    int start = matchStart;
    int limit = Math.max(0, matchStart - IDENTIFIER_CONTEXT);
    while (start > limit && isIdentifierCharacter(text.charAt(start - 1))) {
      start--;
    }
    return start;
  }

  private static boolean isIdentifierCharacter(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '_'
        || c == '.'
        || c == '-';
  }

  /** Shannon entropy in bits per character, over the string's UTF-16 code units. */
  static double shannonEntropy(String text) {
    if (text.isEmpty()) {
      return 0;
    }
    Map<Character, Integer> counts = new HashMap<>();
    for (int i = 0; i < text.length(); i++) {
      counts.merge(text.charAt(i), 1, Integer::sum);
    }
    double entropy = 0;
    for (int count : counts.values()) {
      double probability = (double) count / text.length();
      entropy -= probability * (Math.log(probability) / Math.log(2));
    }
    return entropy;
  }

  private static boolean containsDigit(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        return true;
      }
    }
    return false;
  }
}
