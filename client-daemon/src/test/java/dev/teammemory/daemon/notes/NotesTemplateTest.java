package dev.teammemory.daemon.notes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.transcript.Tokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NotesTemplateTest {

  private static final Path NOTES = Path.of("/c/projects/-p/s1/session-memory/summary.md");

  @Test
  void theDefaultsAreUsedWhenNoCustomFilesExist(@TempDir Path root) throws IOException {
    NotesTemplate template = NotesTemplate.load(new ClaudeLayout(root, root.resolve("state")));

    assertThat(template).isEqualTo(NotesTemplate.defaults());
    assertThat(template.customTemplate()).isFalse();
  }

  @Test
  void customTemplateAndPromptAreHonoured(@TempDir Path root) throws IOException {
    Path config = Files.createDirectories(root.resolve("session-memory/config"));
    Files.writeString(
        config.resolve("template.md"), "# Goal\n_What we want_\n\n# Log\n_What happened_\n");
    Files.writeString(
        config.resolve("prompt.md"),
        "Update {{notesPath}} from:\n{{currentNotes}}\nKeep {{unknown}} as is.");

    NotesTemplate template = NotesTemplate.load(new ClaudeLayout(root, root.resolve("state")));

    assertThat(template.customTemplate()).isTrue();
    assertThat(template.customPrompt()).isTrue();
    assertThat(template.template()).startsWith("# Goal");
    assertThat(template.updatePrompt("# Goal\n_What we want_\nship it", NOTES))
        .isEqualTo(
            "Update " + NOTES + " from:\n# Goal\n_What we want_\nship it\nKeep {{unknown}} as is.");
  }

  @Test
  void substitutionIsOnePassSoNotesMentioningVariablesStayAsWritten() {
    NotesTemplate template = NotesTemplate.defaults();

    String prompt =
        template.updatePrompt("a note about {{notesPath}} and $1 \\ backslashes", NOTES);

    assertThat(prompt)
        .contains(
            "<current_notes_content>\na note about {{notesPath}} and $1 \\ backslashes\n</current_notes_content>");
    assertThat(prompt).contains("Use the Edit tool with file_path: " + NOTES);
    assertThat(NotesTemplate.substitute("{{a}}{{b}}", Map.of("a", "{{b}}", "b", "B")))
        .isEqualTo("{{b}}B");
  }

  @Test
  void anOversizedSectionGetsTheCondenseInstruction() {
    String notes =
        NotesDocument.parse(NotesTemplate.DEFAULT_TEMPLATE)
            .withContent(9, "x".repeat(9_000))
            .render();

    assertThat(NotesTemplate.budgetReminders(notes))
        .isEqualTo(
            "\n\nIMPORTANT: The following sections exceed the per-section limit and MUST be condensed:\n"
                + "- \"# Worklog\" is ~2269 tokens (limit: 2000)");
  }

  @Test
  void notesOverTheTotalBudgetGetTheCriticalInstruction() {
    NotesDocument document = NotesDocument.parse(NotesTemplate.DEFAULT_TEMPLATE);
    for (int i = 0; i < 10; i++) {
      document = document.withContent(i, "y".repeat(i == 3 ? 10_000 : 5_000));
    }
    String notes = document.render();

    String reminders = NotesTemplate.budgetReminders(notes);

    assertThat(reminders)
        .startsWith(
            "\n\nCRITICAL: The session memory file is currently ~"
                + Tokens.rough(notes)
                + " tokens, which exceeds the maximum of 12000 tokens. You MUST condense the file to fit within this budget."
                + " Aggressively shorten oversized sections by removing less important details, merging related items, and"
                + " summarizing older entries. Prioritize keeping \"Current State\" and \"Errors & Corrections\" accurate and detailed.");
    assertThat(reminders)
        .endsWith(
            "\n\nOversized sections to condense:\n- \"# Files and Functions\" is ~2523 tokens (limit: 2000)");
  }

  @Test
  void notesWithinBudgetGetNoReminder() {
    assertThat(NotesTemplate.budgetReminders(NotesTemplate.DEFAULT_TEMPLATE)).isEmpty();
  }

  @Test
  void theDefaultPromptAndTemplateHaveNoRunsOfSpacesInsideTheirSentences() {
    assertThat(NotesTemplate.DEFAULT_PROMPT + NotesTemplate.DEFAULT_TEMPLATE)
        .doesNotContainPattern("\\S {2,}\\S")
        .contains("it asks you to keep that conversation's notes.");
  }
}
