package dev.teammemory.daemon.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class TokensTest {

  @Test
  void roughIsCharactersOverFourRoundedHalfUp() {
    assertThat(Tokens.rough("")).isZero();
    assertThat(Tokens.rough("a")).isZero();
    assertThat(Tokens.rough("ab")).isEqualTo(1);
    assertThat(Tokens.rough("abcdef")).isEqualTo(2);
    assertThat(Tokens.rough("x".repeat(4_000))).isEqualTo(1_000);
  }

  @Test
  void imagesAndDocumentsCountTwoThousandWhateverTheirSize() {
    Transcript transcript =
        Transcript.parse(
            """
            {"type":"user","uuid":"1","message":{"role":"user","content":[{"type":"image","source":{"data":"AAAA"}},{"type":"document","source":{"data":"BBBB"}}]}}
            """);

    assertThat(Tokens.estimate(transcript.messages())).isEqualTo(4_000);
  }

  @Test
  void toolUsesCountTheirNameAndInputJson() {
    Transcript transcript =
        Transcript.parse(
            """
            {"type":"assistant","uuid":"1","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls"}}]}}
            """);

    // "Bash" + {"command":"ls"} is 4 + 16 characters.
    assertThat(Tokens.estimate(transcript.messages())).isEqualTo(5);
  }

  @Test
  void estimateIsTheLastUsagePlusRoughCountsAfterIt() {
    String jsonl =
        new TranscriptBuilder("abcd1234", "/p")
            .user("x".repeat(400))
            .assistant("reply", 5_000)
            .user("y".repeat(4_000))
            .build();

    assertThat(Tokens.estimate(Transcript.parse(jsonl).messages())).isEqualTo(5_000 + 1_000);
  }

  @Test
  void withoutAnyUsageEverythingIsEstimated() {
    Transcript transcript =
        Transcript.parse(
            """
            {"type":"user","uuid":"1","message":{"role":"user","content":"abcdefgh"}}
            {"type":"assistant","uuid":"2","parentUuid":"1","message":{"role":"assistant","content":[{"type":"text","text":"abcd"}]}}
            """);

    assertThat(Tokens.estimate(transcript.messages())).isEqualTo(3);
  }

  @Test
  void parallelToolCallsCountEveryInterleavedResult() throws IOException {
    Transcript transcript = Transcript.read(TranscriptTest.resource("tool-pairs.jsonl"));
    var messages = transcript.messages();
    // Up to and including the second split entry of msg_01B and its result (u4).
    int end = 0;
    for (int i = 0; i < messages.size(); i++) {
      if (messages.get(i).uuid().orElseThrow().equals("u4")) {
        end = i + 1;
      }
    }
    var slice = messages.subList(0, end);
    long firstResult =
        Tokens.rough(
            messages.stream()
                .filter(m -> m.uuid().orElseThrow().equals("u3"))
                .findFirst()
                .orElseThrow());
    long secondUse =
        Tokens.rough(
            messages.stream()
                .filter(m -> m.uuid().orElseThrow().equals("a5"))
                .findFirst()
                .orElseThrow());
    long secondResult =
        Tokens.rough(
            messages.stream()
                .filter(m -> m.uuid().orElseThrow().equals("u4"))
                .findFirst()
                .orElseThrow());

    // msg_01B reported 12,400 + 9,000 cached + 60 output; the estimate starts after its first
    // entry.
    assertThat(Tokens.estimate(slice))
        .isEqualTo(12_400 + 9_000 + 60 + firstResult + secondUse + secondResult);
  }

  @Test
  void syntheticResponsesSayNothingAboutTheContext() {
    Transcript transcript =
        Transcript.parse(
            """
            {"type":"assistant","uuid":"1","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"a"}],"usage":{"input_tokens":900,"output_tokens":100}}}
            {"type":"assistant","uuid":"2","parentUuid":"1","message":{"id":"m2","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"No response requested."}],"usage":{"input_tokens":0,"output_tokens":0}}}
            """);

    assertThat(Tokens.estimate(transcript.messages()))
        .isEqualTo(1_000 + Tokens.rough("No response requested."));
  }

  @Test
  void afterCompactionOnlyTheNewContextCounts() throws IOException {
    Transcript transcript = Transcript.read(TranscriptTest.resource("compaction.jsonl"));

    assertThat(Tokens.estimate(transcript.currentContext())).isEqualTo(9_400 + 50);
    assertThat(Tokens.estimate(transcript.messages())).isEqualTo(9_400 + 50);
  }
}
