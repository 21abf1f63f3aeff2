package dev.teammemory.daemon.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TranscriptTest {

  static Path resource(String name) {
    try {
      return Path.of(
          Objects.requireNonNull(TranscriptTest.class.getResource("/transcripts/" + name), name)
              .toURI());
    } catch (URISyntaxException impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  @Test
  void readsToolCallsWithTheirResultsAcrossSplitAssistantEntries() throws IOException {
    Transcript transcript = Transcript.read(resource("tool-pairs.jsonl"));

    List<TranscriptEntry> messages = transcript.messages();
    List<String> toolUseIds =
        messages.stream()
            .flatMap(message -> message.toolUses().stream())
            .map(ContentBlock.ToolUse::id)
            .toList();
    List<String> resultIds =
        messages.stream()
            .flatMap(message -> message.toolResults().stream())
            .map(ContentBlock.ToolResult::toolUseId)
            .toList();
    assertThat(toolUseIds)
        .containsExactly(
            "toolu_01", "toolu_02", "toolu_03", "toolu_04", "toolu_05", "toolu_06", "toolu_07");
    assertThat(resultIds).containsExactlyElementsOf(toolUseIds);
    assertThat(
            messages.stream().filter(message -> message.messageId().equals(Optional.of("msg_01B"))))
        .hasSize(2);
    assertThat(transcript.unreadableLines()).isEmpty();
    assertThat(transcript.sessionId()).contains("0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d");
    assertThat(transcript.cwd()).contains("/home/dev/shop");
  }

  @Test
  void leavesOutSidechainsSummariesAndSnapshots() throws IOException {
    Transcript transcript = Transcript.read(resource("tool-pairs.jsonl"));

    assertThat(transcript.messages()).noneMatch(TranscriptEntry::sidechain);
    assertThat(transcript.messages()).allMatch(TranscriptEntry::isMessage);
    assertThat(transcript.entries())
        .anyMatch(entry -> entry.type().equals("file-history-snapshot"));
    assertThat(transcript.messages().getLast().uuid()).contains("a10");
  }

  @Test
  void tellsHumanTurnsFromToolResultsAndInterruptions() throws IOException {
    Transcript transcript = Transcript.read(resource("errors-and-images.jsonl"));

    List<String> human =
        transcript.messages().stream()
            .filter(TranscriptEntry::isHumanTurn)
            .map(entry -> entry.uuid().orElseThrow())
            .toList();
    assertThat(human).containsExactly("v1", "v5", "v7");
    assertThat(
            transcript.messages().stream()
                .filter(TranscriptEntry::isInterruption)
                .map(entry -> entry.uuid().orElseThrow()))
        .containsExactly("v4");
  }

  @Test
  void keepsImagesDocumentsAndUnknownBlocksAsPlaceholders() throws IOException {
    Transcript transcript = Transcript.read(resource("errors-and-images.jsonl"));
    List<ContentBlock> blocks =
        transcript.messages().stream().flatMap(message -> message.content().stream()).toList();

    assertThat(blocks).contains(new ContentBlock.Image("image/png"));
    assertThat(blocks).contains(new ContentBlock.Document("application/pdf", "style-guide.pdf"));
    assertThat(blocks)
        .anyMatch(
            block ->
                block instanceof ContentBlock.Other other
                    && other.type().equals("server_tool_use"));
    ContentBlock.ToolResult withImage =
        blocks.stream()
            .filter(ContentBlock.ToolResult.class::isInstance)
            .map(ContentBlock.ToolResult.class::cast)
            .filter(result -> result.toolUseId().equals("toolu_13"))
            .findFirst()
            .orElseThrow();
    assertThat(withImage.text()).startsWith("vite v5.2.0 building");
    assertThat(withImage.content()).contains(new ContentBlock.Image("image/png"));
  }

  @Test
  void skipsATornLastLineAndReadsTheRest() throws IOException {
    Transcript transcript = Transcript.read(resource("errors-and-images.jsonl"));

    assertThat(transcript.unreadableLines()).containsExactly(15);
    assertThat(transcript.messages().getLast().uuid()).contains("b5");
  }

  @Test
  void oneBadLineInTheMiddleDoesNotStopReading(@TempDir Path directory) throws IOException {
    String good =
        new TranscriptBuilder("1234abcd-0000", "/p").user("first").assistant("reply", 10).build();
    String[] lines = good.split("\n");
    Path file = directory.resolve("t.jsonl");
    Files.writeString(file, lines[0] + "\nnot json at all\n[1,2,3]\n\n" + lines[1] + "\n");

    Transcript transcript = Transcript.read(file);

    assertThat(transcript.messages()).hasSize(2);
    assertThat(transcript.unreadableLines()).containsExactly(2, 3);
  }

  @Test
  void invalidUtf8IsReplacedNotFatal(@TempDir Path directory) throws IOException {
    Path file = directory.resolve("t.jsonl");
    byte[] prefix =
        "{\"type\":\"user\",\"uuid\":\"x\",\"message\":{\"role\":\"user\",\"content\":\"caf"
            .getBytes();
    byte[] suffix = "\"}}\n".getBytes();
    byte[] bytes = new byte[prefix.length + 1 + suffix.length];
    System.arraycopy(prefix, 0, bytes, 0, prefix.length);
    bytes[prefix.length] = (byte) 0xE9;
    System.arraycopy(suffix, 0, bytes, prefix.length + 1, suffix.length);
    Files.write(file, bytes);

    assertThat(Transcript.read(file).messages().getFirst().text()).isEqualTo("caf\uFFFD");
  }

  @Test
  void theCurrentContextStartsAfterTheLastCompactBoundary() throws IOException {
    Transcript transcript = Transcript.read(resource("compaction.jsonl"));

    assertThat(transcript.conversation().stream().map(entry -> entry.uuid().orElseThrow()))
        .containsExactly("w1", "c1", "w2", "c2", "cb1", "w3", "c3", "w4", "c4");
    assertThat(transcript.currentContext().stream().map(entry -> entry.uuid().orElseThrow()))
        .containsExactly("w3", "c3", "w4", "c4");
    assertThat(transcript.currentContext().getFirst().compactSummary()).isTrue();
  }

  @Test
  void followsTheActiveBranchWhenTheUserRewound() throws IOException {
    Transcript transcript = Transcript.read(resource("rewound-branch.jsonl"));

    assertThat(transcript.messages().stream().map(entry -> entry.uuid().orElseThrow()))
        .containsExactly("x1", "d1", "x3", "d3");
  }

  @Test
  void fallsBackToFileOrderWhenParentLinksAreBroken() {
    String jsonl =
        """
        {"type":"user","uuid":"1","parentUuid":"gone","message":{"role":"user","content":"a"}}
        {"type":"assistant","uuid":"2","parentUuid":"1","message":{"role":"assistant","content":[{"type":"text","text":"b"}]}}
        {"type":"user","message":{"role":"user","content":"no uuid at all"}}
        """;

    assertThat(Transcript.parse(jsonl).messages()).hasSize(3);
  }

  @Test
  void toleratesMissingAndOddlyTypedFields() {
    String jsonl =
        """
        {"type":"assistant","uuid":7,"message":{"role":"assistant","content":"plain string","usage":{"input_tokens":"many"}}}
        {"message":{"content":[{"type":"tool_use"}]}}
        {"type":"user","timestamp":"yesterday","message":{"content":[{"type":"tool_result","content":{"odd":true}}]}}
        """;

    Transcript transcript = Transcript.parse(jsonl);

    assertThat(transcript.entries()).hasSize(3);
    assertThat(transcript.unreadableLines()).isEmpty();
    assertThat(transcript.entries().getFirst().text()).isEqualTo("plain string");
    assertThat(transcript.entries().get(1).type()).isEqualTo("unknown");
    assertThat(transcript.entries().get(2).timestamp()).isEmpty();
  }
}
