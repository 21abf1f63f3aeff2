package dev.teammemory.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeywordIndexTest {

  @Test
  void findsOverlappingKeywordsAtTheirStarts() {
    KeywordIndex index = new KeywordIndex(List.of("he", "she", "his", "hers"));

    assertThat(hits(index, "ushers")).containsExactly("she@1", "he@2", "hers@2");
  }

  @Test
  void lowerCaseKeywordsMatchInAnyCaseAndMixedCaseOnlyAsSpelled() {
    KeywordIndex index = new KeywordIndex(List.of("ghp_", "SK"));

    assertThat(hits(index, "GHP_ ghp_ ask SK sK")).containsExactly("ghp_@0", "ghp_@5", "SK@14");
  }

  @Test
  void nonAsciiTextNeitherMatchesNorBreaksAMatchAround() {
    KeywordIndex index = new KeywordIndex(List.of("akia"));

    assertThat(hits(index, "ak\u00efa \uD83D\uDE80akia\u00e9")).containsExactly("akia@7");
  }

  @Test
  void agreesWithIndexOfOnRandomText() {
    Random random = new Random(7);
    List<String> keywords = List.of("ab", "abc", "bca", "c", "AB", "cab", "aaa");
    KeywordIndex index = new KeywordIndex(keywords);
    for (int round = 0; round < 200; round++) {
      String text = ExampleText.random("abcABC d", 200, random);
      List<String> expected = new ArrayList<>();
      for (int end = 1; end <= text.length(); end++) {
        for (String keyword : keywords) {
          int start = end - keyword.length();
          if (start < 0) {
            continue;
          }
          String candidate = text.substring(start, end);
          boolean exact = !keyword.equals(keyword.toLowerCase(Locale.ROOT));
          if (exact ? candidate.equals(keyword) : candidate.equalsIgnoreCase(keyword)) {
            expected.add(keyword + "@" + start);
          }
        }
      }
      assertThat(hits(index, text)).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @Test
  void rejectsNonAsciiAndEmptyKeywords() {
    assertThatThrownBy(() -> new KeywordIndex(List.of("caf\u00e9")))
        .hasMessage("keyword is not ASCII: caf\u00e9");
    assertThatThrownBy(() -> new KeywordIndex(List.of(""))).hasMessage("empty keyword");
  }

  private static List<String> hits(KeywordIndex index, String text) {
    int[] hits = index.find(text);
    List<String> found = new ArrayList<>();
    for (int i = 0; i < hits.length; i += 2) {
      found.add(index.keyword(hits[i]) + "@" + hits[i + 1]);
    }
    return found;
  }
}
