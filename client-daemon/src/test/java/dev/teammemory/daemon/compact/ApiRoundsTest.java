package dev.teammemory.daemon.compact;

import static dev.teammemory.daemon.compact.HandMadeTranscript.words;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ApiRoundsTest {

  private final HandMadeTranscript transcript = new HandMadeTranscript("s1", "/work/app");

  private List<TranscriptEntry> rounds(int count, int tokensEach) {
    transcript.user("start");
    for (int i = 0; i < count - 1; i++) {
      transcript.assistant(words("round" + i, tokensEach));
      transcript.user("next " + i);
    }
    return Transcript.parse(transcript.jsonl()).messages();
  }

  @Test
  void aRoundStartsWithEachNewResponseAndKeepsItsFragmentsAndResultsTogether() {
    transcript.user("read two files");
    String response = transcript.newResponseId();
    transcript.toolCall(response, "toolu_a", "Read", Map.of("file_path", "a"));
    transcript.toolResult("toolu_a", "alpha", false);
    transcript.toolCall(response, "toolu_b", "Read", Map.of("file_path", "b"));
    transcript.toolResult("toolu_b", "beta", false);
    transcript.assistant("both read");

    List<List<TranscriptEntry>> groups =
        ApiRounds.group(Transcript.parse(transcript.jsonl()).messages());

    assertThat(groups).extracting(List::size).containsExactly(1, 4, 1);
  }

  @Test
  void theReportedGapDropsJustEnoughOfTheOldestRounds() {
    List<TranscriptEntry> messages = rounds(10, 1_000);

    List<TranscriptEntry> remaining =
        ApiRounds.dropOldest(messages, OptionalLong.of(1_500)).orElseThrow();

    // Round 1 is the opening user message, round 2 the first answer: 1,000 tokens and more.
    assertThat(ApiRounds.group(remaining)).hasSize(7);
  }

  @Test
  void withoutAGapAFifthOfTheRoundsIsDropped() {
    List<TranscriptEntry> messages = rounds(10, 100);

    assertThat(ApiRounds.group(ApiRounds.dropOldest(messages, OptionalLong.empty()).orElseThrow()))
        .hasSize(8);
  }

  @Test
  void atLeastOneRoundIsDroppedAndAtLeastOneIsKept() {
    assertThat(
            ApiRounds.group(
                ApiRounds.dropOldest(rounds(3, 100), OptionalLong.empty()).orElseThrow()))
        .hasSize(2);
    assertThat(
            ApiRounds.group(
                ApiRounds.dropOldest(rounds(3, 100), OptionalLong.of(10_000_000)).orElseThrow()))
        .hasSize(1);
  }

  @Test
  void aSingleRoundCannotBeShortened() {
    transcript.user(words("alone", 100));

    assertThat(
            ApiRounds.dropOldest(
                Transcript.parse(transcript.jsonl()).messages(), OptionalLong.empty()))
        .isEmpty();
  }

  @Test
  void theGapIsReadFromThePromptTooLongMessage() {
    assertThat(ApiRounds.tokenGap("prompt is too long: 210345 tokens > 200000 maximum"))
        .hasValue(10_345);
    assertThat(ApiRounds.tokenGap("Prompt is too long")).isEmpty();
  }
}
