package dev.teammemory.daemon.notes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.ModelSettings;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptBuilder;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionNotesTest {

  private static final String SESSION = "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2025-06-01T10:00:00Z"), ZoneOffset.UTC);
  private static final String TITLE_DESCRIPTION =
      "_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_";

  @TempDir Path root;
  private ClaudeLayout layout;
  private Path transcript;
  private Path notes;

  @BeforeEach
  void layout() {
    layout = new ClaudeLayout(root.resolve("config"), root.resolve("state"));
    transcript = layout.transcript(Path.of("/home/dev/shop"), SESSION);
    notes = ClaudeLayout.sessionNotesBeside(transcript);
  }

  private SessionNotes offline() {
    return new SessionNotes(layout, new OfflineLanguageModel("test"), CLOCK);
  }

  private static TranscriptBuilder conversation(long tokens) {
    return new TranscriptBuilder(SESSION, "/home/dev/shop")
        .user("Fix the flaky checkout test")
        .toolCall("Bash", Map.of("command", "npm test"), "1 failed", true, tokens / 2)
        .assistant("The test races on the session store.", tokens);
  }

  @Test
  void nothingIsWrittenBeforeTheConversationIsBigEnough() throws IOException {
    conversation(4_000).writeTo(transcript);

    NotesOutcome outcome = offline().update(transcript, notes, false);

    assertThat(outcome)
        .isEqualTo(
            new NotesOutcome.NotDue(
                notes, 4_000, "the conversation is ~4000 tokens; notes start at 10000"));
    assertThat(notes).doesNotExist();
  }

  @Test
  void theFirstUpdateCreatesAPrivateFileFromTheTemplate() throws IOException {
    conversation(12_000).writeTo(transcript);

    NotesOutcome outcome = offline().update(transcript, notes, false);

    assertThat(outcome).isInstanceOf(NotesOutcome.Updated.class);
    assertThat(((NotesOutcome.Updated) outcome).writer()).isEqualTo("offline");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(notes)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(notes.getParent())))
        .isEqualTo("rwx------");
    String written = Files.readString(notes);
    assertThat(NotesDocument.parse(written).structure())
        .isEqualTo(NotesDocument.parse(NotesTemplate.DEFAULT_TEMPLATE).structure());
    assertThat(written).contains(TITLE_DESCRIPTION + "\nFix the flaky checkout test\n");
    assertThat(root.resolve("state/session-notes")).isDirectory();
    assertThat(Files.list(notes.getParent())).containsExactly(notes);
  }

  @Test
  void aSecondUpdateWaitsForFiveThousandMoreTokens() throws IOException {
    TranscriptBuilder builder = conversation(12_000);
    builder.writeTo(transcript);
    offline().update(transcript, notes, false);

    builder.user("now the docs").assistant("Docs updated.", 14_000).writeTo(transcript);
    NotesOutcome early = offline().update(transcript, notes, false);
    builder.user("and the changelog").assistant("Changelog updated.", 17_500).writeTo(transcript);
    NotesOutcome due = offline().update(transcript, notes, false);

    assertThat(early).isInstanceOf(NotesOutcome.NotDue.class);
    assertThat(due).isInstanceOf(NotesOutcome.Updated.class);
    assertThat(offline().progress(notes).tokensAtLastUpdate()).isEqualTo(17_500);
    assertThat(offline().progress(notes).lastUpdate()).contains(CLOCK.instant());
  }

  @Test
  void forceUpdatesWhateverTheThresholds() throws IOException {
    conversation(500).writeTo(transcript);

    assertThat(offline().update(transcript, notes, true)).isInstanceOf(NotesOutcome.Updated.class);
    assertThat(notes).exists();
  }

  @Test
  void theLastSummarizedMessageOnlyMovesWhenNoToolCallIsPending() throws IOException {
    TranscriptBuilder builder =
        new TranscriptBuilder(SESSION, "/home/dev/shop").user("go").assistant("ok", 11_000);
    builder.writeTo(transcript);
    NotesOutcome first = offline().update(transcript, notes, false);
    String summarized = builder.lastUuid();

    builder.toolCall("Bash", Map.of("command", "make"), null, false, 17_000).writeTo(transcript);
    NotesOutcome pending = offline().update(transcript, notes, true);

    assertThat(((NotesOutcome.Updated) first).lastSummarizedMessage()).contains(summarized);
    assertThat(((NotesOutcome.Updated) pending).lastSummarizedMessage()).contains(summarized);
    assertThat(offline().progress(notes).lastSummarizedMessage()).contains(summarized);
    assertThat(offline().progress(notes).lastUpdateMessage()).contains(builder.lastUuid());
  }

  @Test
  void aCustomTemplateIsUsed() throws IOException {
    Path config = Files.createDirectories(layout.sessionMemoryConfig());
    Files.writeString(
        config.resolve("template.md"), "# Session Title\n_Name it_\n\n# Worklog\n_Steps_\n");
    conversation(12_000).writeTo(transcript);

    offline().update(transcript, notes, false);

    assertThat(Files.readString(notes))
        .isEqualTo(
            "# Session Title\n_Name it_\nFix the flaky checkout test\n\n# Worklog\n_Steps_\n1. Fix the flaky checkout test — ran `npm test` ✗\n");
  }

  @Test
  void oneUpdateAtATime() throws IOException {
    conversation(12_000).writeTo(transcript);
    NotesProgressStore store = new NotesProgressStore(layout.stateHome());
    Files.createDirectories(store.directory());
    try (FileChannel channel =
            FileChannel.open(
                store.lockFile(notes), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held = channel.lock()) {

      assertThat(offline().update(transcript, notes, false))
          .isEqualTo(new NotesOutcome.Busy(notes));
    }
    assertThat(offline().update(transcript, notes, false)).isInstanceOf(NotesOutcome.Updated.class);
  }

  @Test
  void theDefaultNotesPathIsBesideTheTranscriptOrTheSessionsOwn() throws IOException {
    Path elsewhere = conversation(100).writeTo(root.resolve("copies/session.jsonl"));

    assertThat(SessionNotes.notesFor(layout, transcript, Transcript.read(elsewhere)))
        .isEqualTo(notes);
    assertThat(SessionNotes.notesFor(layout, elsewhere, Transcript.read(elsewhere)))
        .isEqualTo(layout.sessionNotes(Path.of("/home/dev/shop"), SESSION));
  }

  /** The model may edit only the notes: its edit of another file is refused by the gate. */
  @Test
  void withAModelTheModelEditsTheNotesAndNothingElse() throws Exception {
    conversation(12_000).writeTo(transcript);
    Path other = Files.writeString(root.resolve("other.md"), "untouched\n");
    try (MockWebServer server = new MockWebServer()) {
      server.start();
      server.enqueue(
          reply(
              "["
                  + edit(
                      "t1",
                      notes,
                      TITLE_DESCRIPTION + "\\n",
                      TITLE_DESCRIPTION + "\\nFlaky checkout test race\\n")
                  + ","
                  + edit("t2", other, "untouched", "changed")
                  + "]",
              "tool_use"));
      server.enqueue(reply("[{\"type\":\"text\",\"text\":\"Updated.\"}]", "end_turn"));

      NotesOutcome outcome = withModel(server).update(transcript, notes, false);

      assertThat(outcome).isInstanceOf(NotesOutcome.Updated.class);
      assertThat(((NotesOutcome.Updated) outcome).writer())
          .isEqualTo("model claude-notes (1 edit, 1 refused)");
      assertThat(Files.readString(notes))
          .contains(TITLE_DESCRIPTION + "\nFlaky checkout test race\n");
      assertThat(Files.readString(other)).isEqualTo("untouched\n");
      JsonNode request = new ObjectMapper().readTree(server.takeRequest().getBody().utf8());
      assertThat(request.path("model").asText()).isEqualTo("claude-notes");
      assertThat(request.path("tools").get(0).path("name").asText()).isEqualTo("Edit");
      String prompt = request.path("messages").get(0).path("content").get(0).path("text").asText();
      assertThat(prompt)
          .startsWith(
              "<conversation>\n[user] Fix the flaky checkout test\n\n[assistant calls Bash] {\"command\":\"npm test\"}\n\n[tool error] 1 failed");
      assertThat(prompt).contains("The notes file " + notes + " has been read for you; it holds:");
      assertThat(prompt)
          .contains(
              "<current_notes_content>\n"
                  + NotesTemplate.DEFAULT_TEMPLATE
                  + "\n</current_notes_content>");
    }
  }

  @Test
  void aModelThatChangesTheHeadersIsUndone() throws Exception {
    conversation(12_000).writeTo(transcript);
    try (MockWebServer server = new MockWebServer()) {
      server.start();
      server.enqueue(reply("[" + edit("t1", notes, "# Worklog", "# My Log") + "]", "tool_use"));
      server.enqueue(reply("[{\"type\":\"text\",\"text\":\"Updated.\"}]", "end_turn"));

      NotesOutcome outcome = withModel(server).update(transcript, notes, false);

      assertThat(outcome)
          .isEqualTo(
              new NotesOutcome.Failed(
                  notes,
                  "the model changed section headers or descriptions; the previous notes were kept"));
      assertThat(Files.readString(notes)).isEqualTo(NotesTemplate.DEFAULT_TEMPLATE);
    }
  }

  @Test
  void whenTheModelCannotBeReachedTheNotesAreWrittenOffline() throws Exception {
    conversation(12_000).writeTo(transcript);
    try (MockWebServer server = new MockWebServer()) {
      server.start();
      server.enqueue(
          new MockResponse.Builder()
              .code(401)
              .body(
                  "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}")
              .build());

      NotesOutcome outcome = withModel(server).update(transcript, notes, false);

      assertThat(((NotesOutcome.Updated) outcome).writer())
          .isEqualTo(
              "offline (the model failed: HTTP 401 authentication_error: invalid x-api-key (after 1 attempt))");
      assertThat(Files.readString(notes)).contains("Fix the flaky checkout test");
    }
  }

  private SessionNotes withModel(MockWebServer server) {
    AnthropicLanguageModel model =
        new AnthropicLanguageModel(
            ModelSettings.fromEnvironment(
                Map.of(
                    "ANTHROPIC_API_KEY",
                    "sk-test",
                    "ANTHROPIC_BASE_URL",
                    server.url("/").toString(),
                    "TMEM_MODEL",
                    "claude-notes")));
    return new SessionNotes(layout, model, CLOCK);
  }

  private static String edit(String id, Path file, String oldString, String newString) {
    return "{\"type\":\"tool_use\",\"id\":\""
        + id
        + "\",\"name\":\"Edit\",\"input\":{\"file_path\":\""
        + file
        + "\",\"old_string\":\""
        + oldString
        + "\",\"new_string\":\""
        + newString
        + "\"}}";
  }

  private static MockResponse reply(String content, String stopReason) {
    return new MockResponse.Builder()
        .code(200)
        .body(
            "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":"
                + content
                + ",\"stop_reason\":\""
                + stopReason
                + "\",\"usage\":{\"input_tokens\":900,\"output_tokens\":40}}")
        .build();
  }

  @Test
  void anEmptyNotesFileLeftByACrashIsFilledFromTheTemplate() throws IOException {
    Files.createDirectories(notes.getParent());
    Files.createFile(notes);

    SessionNotes.createIfMissing(notes, NotesTemplate.DEFAULT_TEMPLATE);

    assertThat(notes).hasContent(NotesTemplate.DEFAULT_TEMPLATE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(notes)))
        .isEqualTo("rw-------");
  }

  @Test
  void existingNotesAreNeverReplacedByTheTemplate() throws IOException {
    Files.createDirectories(notes.getParent());
    Files.writeString(notes, "# Session Title\nmine\n");

    SessionNotes.createIfMissing(notes, NotesTemplate.DEFAULT_TEMPLATE);

    assertThat(notes).hasContent("# Session Title\nmine\n");
  }
}
