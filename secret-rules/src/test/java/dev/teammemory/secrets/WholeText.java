package dev.teammemory.secrets;

import com.google.re2j.Matcher;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference the scanner's windows are checked against: one rule's regex run over the whole
 * text, with the same filters, no prefilter and no windows.
 */
final class WholeText {

  private WholeText() {}

  /** The {@code [start, end]} of every secret the rule's regex accepts in the whole text. */
  static List<List<Integer>> spans(Rule rule, String text) {
    Allowlist global = RuleFile.Catalog.CONTENTS.global();
    List<List<Integer>> spans = new ArrayList<>();
    Matcher matcher = rule.pattern().matcher(text);
    int from = 0;
    while (from <= text.length() && matcher.find(from)) {
      int group = 0;
      for (int g = 1; g <= matcher.groupCount(); g++) {
        if (matcher.start(g) >= 0) {
          group = g;
          break;
        }
      }
      // A separator the match consumed after its secret may open the next match.
      from = matcher.end(group) > matcher.start() ? matcher.end(group) : matcher.start() + 1;
      String secret = text.substring(matcher.start(group), matcher.end(group));
      String match = text.substring(Rule.identifierStart(text, matcher.start()), matcher.end());
      if (!secret.isEmpty() && rule.accepts(secret, match) && !global.allows(secret, match)) {
        spans.add(List.of(matcher.start(group), matcher.end(group)));
      }
    }
    return spans;
  }
}
