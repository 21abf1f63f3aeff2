package dev.teammemory.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Runs every rule's examples from the rule file: the contract each rule states about itself. */
class RuleExamplesTest {

  static Stream<Arguments> matchExamples() {
    return examples(true);
  }

  static Stream<Arguments> noMatchExamples() {
    return examples(false);
  }

  @ParameterizedTest(name = "{0} reports match example {1}")
  @MethodSource("matchExamples")
  void ruleReportsItsMatchExample(String ruleId, int index, Rule rule, String text) {
    List<Finding> findings = SecretScanner.of(List.of(rule)).scan(text);

    assertThat(findings)
        .as("%s match example %d", ruleId, index)
        .extracting(Finding::ruleId)
        .contains(ruleId);
  }

  @ParameterizedTest(name = "{0} stays silent on no-match example {1}")
  @MethodSource("noMatchExamples")
  void ruleStaysSilentOnItsNoMatchExample(String ruleId, int index, Rule rule, String text) {
    List<Finding> findings = SecretScanner.of(List.of(rule)).scan(text);

    assertThat(findings).as("%s no-match example %d", ruleId, index).isEmpty();
  }

  @ParameterizedTest(name = "{0} example {1}: windows find what the whole text holds")
  @MethodSource("allExamples")
  void scanningWindowsAroundKeywordsFindsWhatMatchingTheWholeTextFinds(
      String ruleId, int index, Rule rule, String text) {
    List<SecretScanner.Detection> windowed = SecretScanner.of(List.of(rule)).detect(text);

    assertThat(spans(windowed))
        .as("%s example %d", ruleId, index)
        .isEqualTo(WholeText.spans(rule, text));
  }

  static Stream<Arguments> allExamples() {
    return Stream.concat(examples(true), examples(false));
  }

  private static Stream<Arguments> examples(boolean matching) {
    List<Arguments> arguments = new ArrayList<>();
    for (Rule rule : SecretScanner.allRules().rules()) {
      List<String> templates = matching ? rule.matchExamples() : rule.noMatchExamples();
      int offset = matching ? 0 : 1000;
      IntStream.range(0, templates.size())
          .forEach(
              i ->
                  arguments.add(
                      Arguments.of(
                          rule.id(),
                          i + 1,
                          rule,
                          ExampleText.expand(templates.get(i), rule.id(), offset + i))));
    }
    return arguments.stream();
  }

  private static List<List<Integer>> spans(List<SecretScanner.Detection> detections) {
    return detections.stream()
        .map(detection -> List.of(detection.secretStart(), detection.secretEnd()))
        .toList();
  }
}
