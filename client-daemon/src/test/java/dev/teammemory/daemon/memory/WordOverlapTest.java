package dev.teammemory.daemon.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WordOverlapTest {

  @Test
  void normalizedTextIsLowercaseWordsSeparatedBySingleSpaces() {
    assertThat(WordOverlap.normalized("  Use **bun** — not npm!\n(Always.)"))
        .isEqualTo("use bun not npm always");
  }

  @Test
  void wordsAreTheNormalizedWordsOfThreeLettersOrMore() {
    assertThat(WordOverlap.words("Don't run it on the CI_runner, a bun job"))
        .containsExactlyInAnyOrder("don", "run", "the", "runner", "bun", "job");
  }

  @Test
  void textsThatShareNoWordsHaveNoOverlap() {
    assertThat(
            WordOverlap.similarity(
                WordOverlap.words("deploy on Fridays"), WordOverlap.words("tabs in Go files")))
        .isZero();
  }
}
