package dev.teammemory.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The scanner runs a rule only on windows around its keywords; on documents that pack many
 * examples, fragments and noise together, that must find exactly what the rule's regex finds in the
 * whole text around the same keywords.
 */
class WindowedScanTest {

  private static final String NOISE = "abcxyzABC0189_-.=:;'\" \t\n/+{}()<>";

  @Test
  void windowsAgreeWithWholeTextMatchingOnCrowdedDocuments() {
    Random random = new Random(42);
    List<Rule> rules = SecretScanner.allRules().rules();
    List<String> pieces = new ArrayList<>();
    for (Rule rule : rules) {
      for (int i = 0; i < rule.matchExamples().size(); i++) {
        pieces.add(ExampleText.expand(rule.matchExamples().get(i), rule.id(), i));
      }
      for (int i = 0; i < rule.noMatchExamples().size(); i++) {
        pieces.add(ExampleText.expand(rule.noMatchExamples().get(i), rule.id(), 1000 + i));
      }
    }
    for (int document = 0; document < 40; document++) {
      StringBuilder text = new StringBuilder();
      for (int piece = 0; piece < 60; piece++) {
        String example = pieces.get(random.nextInt(pieces.size()));
        if (random.nextInt(4) == 0) {
          int cut = random.nextInt(example.length());
          example = random.nextBoolean() ? example.substring(cut) : example.substring(0, cut);
        }
        text.append(example).append(ExampleText.random(NOISE, random.nextInt(4), random));
      }
      String content = text.toString().replace("gitleaks:allow", "");
      for (Rule rule : rules) {
        List<List<Integer>> windowed =
            SecretScanner.of(List.of(rule)).detect(content).stream()
                .map(detection -> List.of(detection.secretStart(), detection.secretEnd()))
                .toList();
        assertThat(windowed)
            .as("%s in document %d", rule.id(), document)
            .isEqualTo(WholeText.spans(rule, content));
      }
    }
  }
}
