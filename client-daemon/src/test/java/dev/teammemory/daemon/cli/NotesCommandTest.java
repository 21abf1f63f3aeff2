package dev.teammemory.daemon.cli;

import static dev.teammemory.daemon.testing.TmemRun.tmem;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.testing.TmemRun;
import dev.teammemory.daemon.transcript.TranscriptBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NotesCommandTest {

  private static final String SESSION = "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9";

  @TempDir Path root;
  private Path project;
  private final Map<String, String> variables = new HashMap<>();
  private ClaudeLayout layout;

  @BeforeEach
  void environment() throws IOException {
    project = Files.createDirectories(root.resolve("shop"));
    variables.put("CLAUDE_CONFIG_DIR", root.resolve("config").toString());
    variables.put("XDG_STATE_HOME", root.resolve("state").toString());
    layout = ClaudeLayout.of(environment(project));
  }

  private Environment environment(Path cwd) {
    return new Environment(variables, root.resolve("home"), cwd);
  }

  private Path transcript(long tokens) throws IOException {
    return new TranscriptBuilder(SESSION, project.toString())
        .user("Add a CSV export to the invoices page")
        .toolCall(
            "Write",
            Map.of("file_path", project + "/src/export.ts", "content", "export {}"),
            "File created",
            false,
            tokens / 2)
        .assistant("The export is in src/export.ts.", tokens)
        .writeTo(layout.transcript(project, SESSION));
  }

  @Test
  void updateWritesTheSessionsNotesBesideItsTranscript() throws IOException {
    Path transcript = transcript(12_000);

    TmemRun run =
        tmem(environment(project), "notes", "update", "--transcript", transcript.toString());

    Path notes = layout.sessionNotes(project, SESSION);
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .isEqualTo("updated " + notes + " (~12000 tokens of conversation; written offline)\n");
    assertThat(Files.readString(notes))
        .contains("Add a CSV export to the invoices page")
        .contains("- src/export.ts — written");
  }

  @Test
  void updateSaysWhyNotesAreNotDueAndForceWritesThem() throws IOException {
    Path transcript = transcript(3_000);

    TmemRun notDue =
        tmem(environment(project), "notes", "update", "--transcript", transcript.toString());
    TmemRun forced =
        tmem(
            environment(project),
            "notes",
            "update",
            "--transcript",
            transcript.toString(),
            "--force");

    assertThat(notDue.exitCode()).isZero();
    assertThat(notDue.out())
        .isEqualTo(
            "not due: the conversation is ~3000 tokens; notes start at 10000 (--force updates now)\n");
    assertThat(forced.out()).startsWith("updated ");
  }

  @Test
  void updateWritesWhereNotesSays() throws IOException {
    Path transcript = transcript(12_000);
    Path notes = root.resolve("elsewhere/notes.md");

    TmemRun run =
        tmem(
            environment(project),
            "notes",
            "update",
            "--transcript",
            transcript.toString(),
            "--notes",
            notes.toString(),
            "--format",
            "json");

    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.path("outcome").asText()).isEqualTo("updated");
    assertThat(json.path("notes").asText()).isEqualTo(notes.toString());
    assertThat(json.path("writer").asText()).isEqualTo("offline");
    assertThat(json.path("tokens").asLong()).isEqualTo(12_000);
    assertThat(notes).exists();
  }

  @Test
  void showPrintsTheLatestSessionsNotes() throws IOException {
    Path transcript = transcript(12_000);
    tmem(environment(project), "notes", "update", "--transcript", transcript.toString());

    TmemRun run = tmem(environment(project), "notes", "show");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEqualTo(Files.readString(layout.sessionNotes(project, SESSION)));
  }

  @Test
  void showAsJsonGivesSectionsAndProgress() throws IOException {
    Path transcript = transcript(12_000);
    tmem(environment(project), "notes", "update", "--transcript", transcript.toString());

    TmemRun run =
        tmem(environment(project), "notes", "show", "--session", SESSION, "--format", "json");

    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.path("sections")).hasSize(10);
    assertThat(json.path("sections").get(0).path("title").asText()).isEqualTo("Session Title");
    assertThat(json.path("progress").path("initialized").asBoolean()).isTrue();
    assertThat(json.path("progress").path("tokensAtLastUpdate").asLong()).isEqualTo(12_000);
    assertThat(json.path("progress").path("lastSummarizedMessage").asText())
        .isEqualTo(SESSION.substring(0, 8) + "-4");
  }

  @Test
  void showWithoutNotesSaysHowToWriteThem() throws IOException {
    Path transcript = transcript(3_000);

    TmemRun run =
        tmem(environment(project), "notes", "show", "--transcript", transcript.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo(
            "tmem: there are no notes at "
                + layout.sessionNotes(project, SESSION)
                + " yet: they start when the conversation reaches 10,000 tokens; run tmem notes update --transcript FILE --force to write them now\n");
  }

  @Test
  void showOutsideAnyRecordedProjectSaysWhatToPass() {
    TmemRun run = tmem(environment(project), "notes", "show");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).startsWith("tmem: no sessions recorded for " + project);
  }

  @Test
  void aMissingTranscriptIsAUsageError() {
    TmemRun run = tmem(environment(project), "notes", "update", "--transcript", "missing.jsonl");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "tmem: --transcript missing.jsonl is not a file; give the session's .jsonl transcript\n");
    assertThat(tmem(environment(project), "notes", "update").exitCode()).isEqualTo(2);
  }

  @Test
  void offlineNotesRecordResultsNotTheClosingAcknowledgementAndFillLearningsAndKeyResults()
      throws IOException {
    HandMadeTranscript session = new HandMadeTranscript(SESSION, project.toString());
    session.user("Why does the nightly import insert duplicate rows into events_raw?");
    session.toolRound("toolu_read", "Read", Map.of("file_path", project + "/src/import.py"), "...");
    session.assistant(
        "The upsert uses ON CONFLICT (id), but a re-delivered file gets new ids; the key must be"
            + " (source_file, line_no).");
    session.user("Install the dependencies.");
    session.refusedCall(
        "toolu_npm", "Bash", Map.of("command", "npm install"), HandMadeTranscript.REFUSED);
    session.user("No, use bun instead of npm");
    session.toolRound("toolu_bun", "Bash", Map.of("command", "bun install"), "done");
    session.assistant("Installed the dependencies with bun install.");
    session.user("Thanks, I prefer short answers.");
    session.assistant("Understood.");
    Path transcript = session.write(layout.transcript(project, SESSION));
    Path notes = root.resolve("notes.md");

    TmemRun run =
        tmem(
            environment(project),
            "notes",
            "update",
            "--transcript",
            transcript.toString(),
            "--notes",
            notes.toString(),
            "--force");

    assertThat(run.exitCode()).as(run.err()).isZero();
    String written = Files.readString(notes);
    assertThat(section(written, "Current State"))
        .contains("- Latest result: Installed the dependencies with bun install.")
        .doesNotContain("Understood.");
    assertThat(section(written, "Learnings"))
        .contains(
            "- The user refused Bash `npm install`; next they said: \"No, use bun instead of npm\"");
    assertThat(section(written, "Key results"))
        .isEqualTo(
            "- \"Why does the nightly import insert duplicate rows into events_raw?\" → The upsert"
                + " uses ON CONFLICT (id), but a re-delivered file gets new ids; the key must be"
                + " (source_file, line_no).\n"
                + "- \"No, use bun instead of npm\" → Installed the dependencies with bun install.");
  }

  /** A section's content, below its header and italic description. */
  private static String section(String notes, String title) {
    int header = notes.indexOf("# " + title + "\n");
    assertThat(header).as("section " + title).isNotNegative();
    int description = notes.indexOf("\n", header + title.length() + 3);
    int next = notes.indexOf("\n# ", description);
    return notes.substring(description + 1, next < 0 ? notes.length() : next).strip();
  }
}
