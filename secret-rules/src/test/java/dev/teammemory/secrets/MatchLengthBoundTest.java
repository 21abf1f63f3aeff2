package dev.teammemory.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.re2j.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MatchLengthBoundTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '\t',
      textBlock =
          """
          ghp_[0-9A-Za-z]{36}	40
          \\b(ghp_[0-9A-Za-z]{36})\\b	40
          (?i)a(?:bc|d)?e	4
          (?-i:[Aa]pi|API)x	4
          [^\\w-]	2
          .	2
          \\S\\s\\d\\D	6
          x{2,5}y{3}	8
          (?:ab){1,3}?	6
          a{	2
          \\x{1F680}	2
          \\Qa.b\\E	3
          [\\x60'"\\s;]|\\\\[nr]|$	2
          (?P<name>ab)c	3
          \u00e9[\u00e9]	3
          """)
  void boundsTheLongestMatch(String regex, int expected) {
    assertThat(MatchLengthBound.of(regex)).isEqualTo(expected);
  }

  @Test
  void unboundedRepetitionIsUnbounded() {
    assertThat(MatchLengthBound.of("a+")).isEqualTo(MatchLengthBound.UNBOUNDED);
    assertThat(MatchLengthBound.of("a{2,}")).isEqualTo(MatchLengthBound.UNBOUNDED);
    assertThat(MatchLengthBound.of("(?:\\b)*x")).isEqualTo(1);
  }

  @Test
  void rejectsUnbalancedGroups() {
    assertThatThrownBy(() -> MatchLengthBound.of("(ab"))
        .hasMessage("missing ')' at index 3 of regex: (ab");
    assertThatThrownBy(() -> MatchLengthBound.of("ab)"))
        .hasMessage("unbalanced ')' at index 2 of regex: ab)");
  }

  @Test
  void noRuleExampleMatchesLongerThanItsRulesBound() {
    for (Rule rule : SecretScanner.allRules().rules()) {
      for (int i = 0; i < rule.matchExamples().size(); i++) {
        String text = ExampleText.expand(rule.matchExamples().get(i), rule.id(), i);
        Matcher matcher = rule.pattern().matcher(text);
        while (matcher.find()) {
          assertThat(matcher.end() - matcher.start())
              .as("%s match example %d", rule.id(), i + 1)
              .isLessThanOrEqualTo(rule.maxMatchLength());
        }
      }
    }
  }
}
