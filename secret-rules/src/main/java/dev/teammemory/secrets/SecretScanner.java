package dev.teammemory.secrets;

import static java.util.Objects.requireNonNull;

import com.google.re2j.Matcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds secrets in text with gitleaks-derived rules on RE2J, without ever running every rule over
 * the whole text.
 *
 * <p>One pass of an Aho–Corasick automaton finds every rule keyword. Most rules' matches begin at a
 * keyword: such a rule runs anchored at each occurrence, on a stretch no longer than the longest
 * match its regex can produce, and only after two checks that cost less than the regex (no ASCII
 * letter or digit before the keyword where the regex opens with the rule file's separator; an
 * assignment operator after the keyword for the keyword-and-assignment rules). A rule whose keyword
 * may sit inside its match searches a window around each occurrence instead, as wide on either side
 * as its longest match plus one character so that {@code \b} and {@code $} at the edges see the
 * real neighbours; overlapping windows merge. RE2J matches in linear time, so no input is
 * catastrophic.
 *
 * <p>A match is reported when its secret, the rule's capture group, passes the rule's entropy
 * threshold and allowlists and the global allowlist. The comment {@code gitleaks:allow} on a line
 * the match touches exempts nothing unless the scanner was made to honour it ({@link
 * #honouringAllowComments()}): a person may mark a line of their own files so, but a comment must
 * not switch off the guard of what leaves the machine, nor the server's. Offsets are UTF-16 indexes
 * (Java {@code char}s), see {@link Finding}. Immutable and thread-safe; the two rule sets are built
 * once and shared.
 */
public final class SecretScanner {

  static final String REDACTED = "[REDACTED]";
  private static final String INLINE_ALLOW = "gitleaks:allow";

  private final Allowlist global;
  private final List<Rule> rules;
  private final KeywordIndex keywordIndex;
  private final int[][] rulesByKeyword;
  private final boolean honoursAllowComments;

  private SecretScanner(Allowlist global, List<Rule> rules) {
    this.global = requireNonNull(global, "global is null");
    this.rules = List.copyOf(requireNonNull(rules, "rules is null"));
    Map<String, List<Integer>> byKeyword = new HashMap<>();
    for (int r = 0; r < this.rules.size(); r++) {
      for (String keyword : this.rules.get(r).keywords()) {
        byKeyword.computeIfAbsent(keyword, key -> new ArrayList<>()).add(r);
      }
    }
    List<String> keywords = new ArrayList<>(byKeyword.keySet());
    keywords.sort(Comparator.naturalOrder());
    this.keywordIndex = new KeywordIndex(keywords);
    this.rulesByKeyword = new int[keywords.size()][];
    for (int k = 0; k < keywords.size(); k++) {
      rulesByKeyword[k] =
          byKeyword.get(keywords.get(k)).stream().mapToInt(Integer::intValue).toArray();
    }
    this.honoursAllowComments = false;
  }

  private SecretScanner(SecretScanner scanner, boolean honoursAllowComments) {
    this.global = scanner.global;
    this.rules = scanner.rules;
    this.keywordIndex = scanner.keywordIndex;
    this.rulesByKeyword = scanner.rulesByKeyword;
    this.honoursAllowComments = honoursAllowComments;
  }

  /**
   * The high-confidence rules whose tokens carry a distinctive prefix: the set that guards every
   * push and every PUT. Allow comments exempt nothing.
   */
  public static SecretScanner defaultRules() {
    return DefaultRules.SCANNER;
  }

  /**
   * Every rule: the default set plus keyword-and-context rules and a generic keyword-and-entropy
   * rule. More findings, and more false ones. Allow comments exempt nothing.
   */
  public static SecretScanner allRules() {
    return AllRules.SCANNER;
  }

  /** A scanner over the given rules, with the rule file's global allowlist. */
  static SecretScanner of(List<Rule> rules) {
    return new SecretScanner(RuleFile.Catalog.CONTENTS.global(), rules);
  }

  /**
   * This scanner's rules, honouring {@code gitleaks:allow}: a finding on a line that carries the
   * comment is still reported, as {@link Finding#allowed()}, for a scan of a person's own files
   * that shows what they marked. Never for what leaves the machine or reaches the server.
   */
  public SecretScanner honouringAllowComments() {
    return honoursAllowComments ? this : new SecretScanner(this, true);
  }

  /** Whether a {@code gitleaks:allow} comment marks a finding as allowed. */
  public boolean honoursAllowComments() {
    return honoursAllowComments;
  }

  /** This scanner's rules, in rule-file order. */
  public List<Rule> rules() {
    return rules;
  }

  /**
   * Every secret in {@code text}, in the order they appear; never the secrets themselves. Those a
   * comment allows, when this scanner honours allow comments, are among them, marked {@link
   * Finding#allowed()}.
   */
  public List<Finding> scan(String text) {
    requireNonNull(text, "text is null");
    List<Detection> detections = detect(text);
    List<Finding> findings = new ArrayList<>(detections.size());
    int line = 1;
    int lineStart = 0;
    int scanned = 0;
    for (Detection detection : detections) {
      for (; scanned < detection.secretStart(); scanned++) {
        if (text.charAt(scanned) == '\n') {
          line++;
          lineStart = scanned + 1;
        }
      }
      Rule rule = detection.rule();
      findings.add(
          new Finding(
              rule.id(),
              rule.label(),
              line,
              detection.secretStart() - lineStart + 1,
              Finding.fingerprintOf(text.substring(detection.secretStart(), detection.secretEnd())),
              detection.allowed()));
    }
    return List.copyOf(findings);
  }

  /**
   * {@code text} with every secret {@link #scan} reports replaced by {@code [REDACTED]}, except
   * those a comment allows.
   */
  public String redact(String text) {
    requireNonNull(text, "text is null");
    List<Detection> detections =
        detect(text).stream().filter(detection -> !detection.allowed()).toList();
    if (detections.isEmpty()) {
      return text;
    }
    StringBuilder redacted = new StringBuilder(text.length());
    int copied = 0;
    for (Detection detection : detections) {
      if (detection.secretEnd() <= copied) {
        continue; // inside a secret already redacted
      }
      if (detection.secretStart() >= copied) {
        redacted.append(text, copied, detection.secretStart()).append(REDACTED);
      }
      copied = detection.secretEnd();
    }
    return redacted.append(text, copied, text.length()).toString();
  }

  /** Detections sorted by secret start, then rule order. */
  List<Detection> detect(String text) {
    int[] hits = keywordIndex.find(text);
    if (hits.length == 0) {
      return List.of();
    }
    Spans spans = new Spans(rules.size());
    int length = text.length();
    for (int h = 0; h < hits.length; h += 2) {
      int keyword = hits[h];
      int start = hits[h + 1];
      int keywordLength = keywordIndex.keyword(keyword).length();
      for (int r : rulesByKeyword[keyword]) {
        Rule rule = rules.get(r);
        if (rule.keywordAtStart()) {
          spans.add(r, start, start + keywordLength);
        } else {
          int reach = rule.maxMatchLength();
          spans.merge(
              r,
              Math.max(0, start + keywordLength - reach - 1),
              (int) Math.min(length, (long) start + reach + 1));
        }
      }
    }
    List<Detection> detections = new ArrayList<>();
    for (int r = 0; r < rules.size(); r++) {
      Rule rule = rules.get(r);
      int[] ruleSpans = spans.of(r);
      if (rule.keywordAtStart()) {
        matchAtKeywords(text, rule, r, ruleSpans, detections);
      } else {
        for (int w = 0; w < ruleSpans.length; w += 2) {
          matchWindow(text, rule, r, ruleSpans[w], ruleSpans[w + 1], detections);
        }
      }
    }
    dropFallbacksOverlappingSpecifics(detections);
    detections.sort(
        Comparator.comparingInt(Detection::secretStart).thenComparingInt(Detection::ruleIndex));
    return detections;
  }

  /**
   * Runs the rule anchored at each keyword occurrence, skipping occurrences inside an earlier
   * match, as a search over the whole text would.
   */
  private void matchAtKeywords(
      String text, Rule rule, int ruleIndex, int[] keywordSpans, List<Detection> detections) {
    long[] occurrences = new long[keywordSpans.length / 2];
    for (int i = 0; i < occurrences.length; i++) {
      occurrences[i] = ((long) keywordSpans[2 * i] << 32) | keywordSpans[2 * i + 1];
    }
    Arrays.sort(occurrences);
    int matchedUpTo = -1;
    Matcher afterOneCharacter = null;
    int previousStart = -1;
    for (long occurrence : occurrences) {
      int keywordStart = (int) (occurrence >>> 32);
      int keywordEnd = (int) occurrence;
      if (keywordStart < matchedUpTo || keywordStart == previousStart) {
        continue;
      }
      previousStart = keywordStart;
      if (rule.startsAtSeparator() && !separatorBefore(text, keywordStart)) {
        continue;
      }
      if (rule.assignmentFollowsKeyword() && !Rule.assignmentCanFollow(text, keywordEnd)) {
        continue;
      }
      int windowStart = Math.max(0, keywordStart - 1);
      int windowEnd =
          (int) Math.min(text.length(), (long) keywordStart + rule.maxMatchLength() + 1);
      String window = text.substring(windowStart, windowEnd);
      Matcher matcher;
      if (keywordStart == 0) {
        matcher = rule.atTextStart().matcher(window);
      } else if (afterOneCharacter == null) {
        matcher = afterOneCharacter = rule.afterOneCharacter().matcher(window);
      } else {
        matcher = afterOneCharacter.reset(window);
      }
      if (!matcher.find()) {
        continue;
      }
      int matchEnd = windowStart + matcher.end();
      // A separator the match consumed after its secret may open the next one.
      matchedUpTo = windowStart + matcher.end(secretGroup(matcher));
      consider(text, rule, ruleIndex, matcher, windowStart, keywordStart, matchEnd, detections);
    }
  }

  private void matchWindow(
      String text, Rule rule, int ruleIndex, int start, int end, List<Detection> detections) {
    String window = text.substring(start, end);
    Matcher matcher = rule.pattern().matcher(window);
    int from = 0;
    while (from <= window.length() && matcher.find(from)) {
      int matchStart = matcher.start();
      int matchEnd = matcher.end();
      boolean atFalseStart = matchStart == 0 && start > 0;
      boolean atFalseEnd = matchEnd == window.length() && end < text.length();
      if (atFalseStart || (atFalseEnd && !rule.truncatesAtWindow())) {
        // The window's edge stood in for a neighbour it hides; no keyword lies in such a match.
        from = matchStart + 1;
        continue;
      }
      // A separator the match consumed after its secret may open the next one.
      int secretEnd = matcher.end(secretGroup(matcher));
      from = secretEnd > matchStart ? secretEnd : matchStart + 1;
      consider(
          text, rule, ruleIndex, matcher, start, start + matchStart, start + matchEnd, detections);
    }
  }

  /** Applies the filters to one regex match and records it if it passes. */
  private void consider(
      String text,
      Rule rule,
      int ruleIndex,
      Matcher matcher,
      int offset,
      int matchStart,
      int matchEnd,
      List<Detection> detections) {
    int group = secretGroup(matcher);
    int secretStart = offset + matcher.start(group);
    int secretEnd = offset + matcher.end(group);
    if (group == 0) {
      secretStart = matchStart; // the anchored form's group 0 includes the character before
    }
    if (secretEnd == secretStart) {
      return;
    }
    String secret = text.substring(secretStart, secretEnd);
    String match = text.substring(Rule.identifierStart(text, matchStart), matchEnd);
    if (!rule.accepts(secret, match) || global.allows(secret, match)) {
      return;
    }
    boolean allowed = honoursAllowComments && lineAllows(text, matchStart, matchEnd);
    detections.add(new Detection(rule, ruleIndex, secretStart, secretEnd, allowed));
  }

  /** The rule file's leading separator: the text starts here, or no ASCII letter or digit ends. */
  private static boolean separatorBefore(String text, int position) {
    if (position == 0) {
      return true;
    }
    char c = text.charAt(position - 1);
    return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
  }

  private static int secretGroup(Matcher matcher) {
    for (int group = 1; group <= matcher.groupCount(); group++) {
      if (matcher.start(group) >= 0) {
        return group;
      }
    }
    return 0;
  }

  /** Whether a line the match touches carries {@code gitleaks:allow}. */
  private static boolean lineAllows(String text, int matchStart, int matchEnd) {
    int from = text.lastIndexOf('\n', matchStart - 1) + 1;
    int newline = text.indexOf('\n', Math.max(matchEnd - 1, matchStart));
    int to = newline < 0 ? text.length() : newline;
    int last = to - INLINE_ALLOW.length();
    for (int i = from; i <= last; i++) {
      if (text.charAt(i) == 'g' && text.startsWith(INLINE_ALLOW, i)) {
        return true;
      }
    }
    return false;
  }

  /** A generic finding adds nothing where a specific rule already named the secret. */
  private static void dropFallbacksOverlappingSpecifics(List<Detection> detections) {
    List<Detection> specifics =
        detections.stream().filter(detection -> !detection.rule().fallback()).toList();
    if (specifics.size() == detections.size()) {
      return;
    }
    detections.removeIf(
        detection ->
            detection.rule().fallback()
                && specifics.stream()
                    .anyMatch(
                        specific ->
                            specific.secretStart() < detection.secretEnd()
                                && detection.secretStart() < specific.secretEnd()));
  }

  /** A secret a rule found, by its offsets in the scanned text; allowed by a comment or not. */
  record Detection(Rule rule, int ruleIndex, int secretStart, int secretEnd, boolean allowed) {}

  /**
   * Per rule, {@code [start, end)} pairs: keyword starts for anchored rules, scan windows (merged
   * where they overlap) for the others.
   */
  private static final class Spans {
    private final int[][] spans;
    private final int[] counts;

    Spans(int rules) {
      this.spans = new int[rules][];
      this.counts = new int[rules];
    }

    void add(int rule, int start, int end) {
      int[] ruleSpans = spans[rule];
      int count = counts[rule];
      if (ruleSpans == null) {
        ruleSpans = new int[8];
      } else if (count + 2 > ruleSpans.length) {
        ruleSpans = Arrays.copyOf(ruleSpans, ruleSpans.length * 2);
      }
      ruleSpans[count] = start;
      ruleSpans[count + 1] = end;
      spans[rule] = ruleSpans;
      counts[rule] = count + 2;
    }

    /** Window starts arrive in non-decreasing order per rule, as the keyword hits do. */
    void merge(int rule, int start, int end) {
      int count = counts[rule];
      if (count > 0 && start <= spans[rule][count - 1]) {
        spans[rule][count - 1] = Math.max(spans[rule][count - 1], end);
      } else {
        add(rule, start, end);
      }
    }

    int[] of(int rule) {
      return spans[rule] == null ? new int[0] : Arrays.copyOf(spans[rule], counts[rule]);
    }
  }

  private static final class DefaultRules {
    static final SecretScanner SCANNER =
        new SecretScanner(
            RuleFile.Catalog.CONTENTS.global(),
            RuleFile.Catalog.CONTENTS.rules().stream().filter(Rule::inDefaultSet).toList());
  }

  private static final class AllRules {
    static final SecretScanner SCANNER =
        new SecretScanner(RuleFile.Catalog.CONTENTS.global(), RuleFile.Catalog.CONTENTS.rules());
  }
}
