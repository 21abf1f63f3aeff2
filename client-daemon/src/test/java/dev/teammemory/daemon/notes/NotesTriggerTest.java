package dev.teammemory.daemon.notes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.transcript.Tokens;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptBuilder;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import dev.teammemory.daemon.transcript.TranscriptTestResources;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NotesTriggerTest {

  private static final Map<String, String> LS = Map.of("command", "ls");

  private static List<TranscriptEntry> context(TranscriptBuilder builder) {
    return Transcript.parse(builder.build()).currentContext();
  }

  private static NotesTrigger.Decision decide(TranscriptBuilder builder, NotesProgress progress) {
    List<TranscriptEntry> context = context(builder);
    return NotesTrigger.decide(context, Tokens.estimate(context), progress);
  }

  private static NotesProgress updatedAt(long tokens, String message) {
    return new NotesProgress(
        true, tokens, Optional.of(message), Optional.of(message), Optional.empty());
  }

  @Test
  void nothingHappensBeforeTenThousandTokens() {
    TranscriptBuilder builder =
        new TranscriptBuilder("aaaa0001", "/p").user("hi").assistant("hello", 9_000);

    NotesTrigger.Decision decision = decide(builder, NotesProgress.NONE);

    assertThat(decision).isInstanceOf(NotesTrigger.Decision.NotDue.class);
    assertThat(((NotesTrigger.Decision.NotDue) decision).reason())
        .isEqualTo("the conversation is ~9000 tokens; notes start at 10000");
    assertThat(decision.progress().initialized()).isFalse();
  }

  @Test
  void theFirstUpdateComesAtTenThousandTokens() {
    TranscriptBuilder builder =
        new TranscriptBuilder("aaaa0001", "/p").user("hi").assistant("hello", 10_000);

    NotesTrigger.Decision decision = decide(builder, NotesProgress.NONE);

    assertThat(decision).isInstanceOf(NotesTrigger.Decision.Update.class);
    assertThat(decision.progress().initialized()).isTrue();
  }

  @Test
  void initialisationSticksEvenWhenTheFirstUpdateMustWait() {
    TranscriptBuilder builder =
        new TranscriptBuilder("aaaa0001", "/p")
            .user("hi")
            .toolCall("Bash", LS, null, false, 11_000);

    NotesTrigger.Decision decision = decide(builder, NotesProgress.NONE);

    assertThat(decision).isInstanceOf(NotesTrigger.Decision.NotDue.class);
    assertThat(decision.progress().initialized()).isTrue();
  }

  @Test
  void tokenGrowthBelowFiveThousandIsNeverEnoughWhateverTheToolCalls() {
    TranscriptBuilder builder =
        new TranscriptBuilder("aaaa0001", "/p").user("go").assistant("ok", 12_000);
    String last = builder.lastUuid();
    for (int i = 0; i < 6; i++) {
      builder.toolCall("Bash", LS, "out", false, 13_000 + i * 100);
    }
    builder.assistant("done", 16_900);

    NotesTrigger.Decision decision = decide(builder, updatedAt(12_000, last));

    assertThat(((NotesTrigger.Decision.NotDue) decision).reason())
        .isEqualTo("~4900 tokens since the last update; the next one needs 5000");
  }

  @Test
  void fiveThousandMoreAndThreeToolCallsTriggerEvenMidTurn() {
    TranscriptBuilder builder =
        new TranscriptBuilder("aaaa0001", "/p").user("go").assistant("ok", 12_000);
    String last = builder.lastUuid();
    builder
        .toolCall("Bash", LS, "out", false, 13_000)
        .toolCall("Read", Map.of("file_path", "/p/a"), "a", false, 15_000);
    builder.toolCall("Edit", Map.of("file_path", "/p/a"), null, false, 17_000);

    NotesTrigger.Decision decision = decide(builder, updatedAt(12_000, last));

    assertThat(decision).isInstanceOf(NotesTrigger.Decision.Update.class);
    assertThat(((NotesTrigger.Decision.Update) decision).toolCalls()).isEqualTo(3);
    assertThat(((NotesTrigger.Decision.Update) decision).naturalBreak()).isFalse();
  }

  @Test
  void fiveThousandMoreMidTurnWithFewToolCallsWaits() {
    TranscriptBuilder builder =
        new TranscriptBuilder("aaaa0001", "/p").user("go").assistant("ok", 12_000);
    String last = builder.lastUuid();
    builder.toolCall("Bash", LS, "out", false, 15_000).toolCall("Bash", LS, null, false, 17_500);

    NotesTrigger.Decision decision = decide(builder, updatedAt(12_000, last));

    assertThat(((NotesTrigger.Decision.NotDue) decision).reason())
        .isEqualTo(
            "2 tool calls since the last update and the agent is mid-turn; waiting for 3 or a natural break");
  }

  @Test
  void fiveThousandMoreAtANaturalBreakTriggers() {
    TranscriptBuilder builder =
        new TranscriptBuilder("aaaa0001", "/p").user("go").assistant("ok", 12_000);
    String last = builder.lastUuid();
    builder.user("and now explain it").assistant("a long explanation", 17_200);

    NotesTrigger.Decision decision = decide(builder, updatedAt(12_000, last));

    assertThat(decision).isInstanceOf(NotesTrigger.Decision.Update.class);
    assertThat(((NotesTrigger.Decision.Update) decision).naturalBreak()).isTrue();
  }

  @Test
  void toolCallsAreCountedAfterTheLastUpdateOnly() {
    TranscriptBuilder builder = new TranscriptBuilder("aaaa0001", "/p").user("go");
    builder.toolCall("Bash", LS, "out", false, 9_000).toolCall("Bash", LS, "out", false, 9_500);
    String last = builder.lastUuid();
    builder.toolCall("Bash", LS, "out", false, 11_000);

    List<TranscriptEntry> context = context(builder);

    assertThat(NotesTrigger.toolCallsSince(context, Optional.of(last))).isEqualTo(1);
    assertThat(NotesTrigger.toolCallsSince(context, Optional.empty())).isEqualTo(3);
    assertThat(NotesTrigger.toolCallsSince(context, Optional.of("compacted-away"))).isEqualTo(3);
  }

  @Test
  void parallelToolCallsSplitOverEntriesAreOneTurn() throws Exception {
    Transcript transcript = Transcript.read(TranscriptTestResources.file("tool-pairs.jsonl"));
    List<TranscriptEntry> messages = transcript.messages();
    List<TranscriptEntry> upToSecondResult =
        messages.subList(
            0,
            messages.indexOf(
                    messages.stream()
                        .filter(m -> m.uuid().orElseThrow().equals("u4"))
                        .findFirst()
                        .orElseThrow())
                + 1);

    assertThat(NotesTrigger.hasToolCallsInLastAssistantTurn(upToSecondResult)).isTrue();
    assertThat(NotesTrigger.hasToolCallsInLastAssistantTurn(messages)).isFalse();
  }
}
