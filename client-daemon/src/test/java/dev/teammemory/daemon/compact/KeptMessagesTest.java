package dev.teammemory.daemon.compact;

import static dev.teammemory.daemon.compact.HandMadeTranscript.words;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.transcript.Tokens;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeptMessagesTest {

  private final HandMadeTranscript transcript = new HandMadeTranscript("s1", "/work/app");

  private List<TranscriptEntry> context() {
    return Transcript.parse(transcript.jsonl()).currentContext();
  }

  private static int indexOf(List<TranscriptEntry> messages, String uuid) {
    for (int i = 0; i < messages.size(); i++) {
      if (messages.get(i).uuid().orElse("").equals(uuid)) {
        return i;
      }
    }
    throw new AssertionError("no message " + uuid);
  }

  private static long padded(List<TranscriptEntry> messages) {
    return messages.stream().mapToLong(Tokens::padded).sum();
  }

  @Test
  void expandsBackwardsUntilTenThousandPaddedTokensAndFiveTextMessages() {
    String marker = null;
    for (int i = 0; i < 20; i++) {
      transcript.user(words("question" + i, 1_200));
      String answer = transcript.assistant(words("answer" + i, 1_200));
      if (i == 17) {
        marker = answer;
      }
    }
    List<TranscriptEntry> context = context();

    int start = KeptMessages.start(context, indexOf(context, marker));

    // Typed prompts are plain strings and count nothing; each answer is ~1,200 × 4/3 = 1,600.
    // After the marker: 2 answers (3,200) and 4 text messages; 5 more answers and their prompts
    // bring it past 10,000.
    assertThat(context.size() - start).isEqualTo(13);
    assertThat(padded(context.subList(start, context.size()))).isBetween(10_000L, 12_000L);
  }

  @Test
  void theMessageThatReachesFortyThousandTokensIsTheLastOneAdded() {
    for (int i = 0; i < 8; i++) {
      transcript.assistant(words("long" + i, 9_000));
    }
    List<TranscriptEntry> context = context();

    int start = KeptMessages.start(context, context.size() - 1);

    // 12,000 padded tokens each: the fourth one crosses 40,000 and stays.
    assertThat(context.size() - start).isEqualTo(4);
    assertThat(padded(context.subList(start, context.size()))).isGreaterThan(40_000L);
  }

  @Test
  void keepsEveryMessageAfterTheMarkerEvenBeyondTheMaximum() {
    String marker = transcript.user("start");
    for (int i = 0; i < 6; i++) {
      transcript.assistant(words("unsummarized" + i, 9_000));
    }
    List<TranscriptEntry> context = context();

    assertThat(KeptMessages.start(context, indexOf(context, marker))).isEqualTo(1);
  }

  @Test
  void aKeptToolResultPullsInTheAssistantMessageWhoseToolUseItAnswers() {
    transcript.user("read the build file");
    String call =
        transcript.toolCall(
            transcript.newResponseId(),
            "toolu_1",
            "Read",
            Map.of("file_path", "/work/app/pom.xml"));
    transcript.toolResult("toolu_1", words("xml", 11_000), false);
    for (int i = 0; i < 5; i++) {
      transcript.assistant("observation " + i);
    }
    List<TranscriptEntry> context = context();

    int start = KeptMessages.start(context, indexOf(context, call));

    assertThat(context.get(start).uuid()).contains(call);
    assertThat(KeptMessages.orphanToolResult(context.subList(start, context.size()))).isEmpty();
  }

  @Test
  void aKeptFragmentPullsInTheOtherFragmentsOfItsResponseAndTheirResults() {
    transcript.user("look at both files");
    String response = transcript.newResponseId();
    String thought = transcript.thinking(response, "two reads in parallel");
    transcript.toolCall(response, "toolu_a", "Read", Map.of("file_path", "/work/app/a.txt"));
    String firstResult = transcript.toolResult("toolu_a", "alpha", false);
    transcript.toolCall(response, "toolu_b", "Read", Map.of("file_path", "/work/app/b.txt"));
    transcript.toolResult("toolu_b", "beta", false);
    for (int i = 0; i < 5; i++) {
      transcript.assistant(words("finding" + i, 2_500));
    }
    List<TranscriptEntry> context = context();

    int start = KeptMessages.start(context, indexOf(context, firstResult));

    assertThat(context.get(start).uuid()).contains(thought);
  }

  @Test
  void aToolResultWithoutItsCallIsReportedAsAnOrphan() {
    transcript.toolResult("toolu_gone", "result", false);
    transcript.assistant("done");

    assertThat(KeptMessages.orphanToolResult(context())).contains("toolu_gone");
  }
}
