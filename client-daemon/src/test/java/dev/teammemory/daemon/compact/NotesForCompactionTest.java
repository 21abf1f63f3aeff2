package dev.teammemory.daemon.compact;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class NotesForCompactionTest {

  private static final String TEMPLATE =
      """

      # Session Title
      _A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_

      # Current State
      _What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps._
      """;

  @Test
  void aSectionOverEightThousandCharactersIsCutAtALineBoundaryAndMarked() {
    String line = "x".repeat(99);
    String body = (line + "\n").repeat(100);
    String notes = "# Worklog\n_Step by step_\n" + body + "# Learnings\n_What worked_\nshort\n";

    NotesForCompaction cut = NotesForCompaction.of(notes);

    assertThat(cut.truncated()).isTrue();
    String worklog = cut.text().substring(0, cut.text().indexOf("# Learnings"));
    assertThat(worklog).endsWith("\n[... section truncated for length ...]\n");
    assertThat(worklog.length()).isLessThan(8_000 + 200);
    assertThat(worklog.lines().filter(text -> text.equals(line)).count()).isEqualTo(79);
    assertThat(cut.text()).endsWith("# Learnings\n_What worked_\nshort\n");
  }

  @Test
  void sectionsWithinTheLimitAreLeftExactlyAsTheyAre() {
    String notes = "# Current State\n_What now_\nFixing the refresh race.\n";

    assertThat(NotesForCompaction.of(notes)).isEqualTo(new NotesForCompaction(notes, false));
  }

  @Test
  void theBareTemplateIsTemplateOnlyAndAnyContentLineIsNot() {
    assertThat(NotesForCompaction.isTemplateOnly(TEMPLATE, Optional.empty())).isTrue();
    assertThat(
            NotesForCompaction.isTemplateOnly(
                TEMPLATE + "Fixing the refresh race.\n", Optional.empty()))
        .isFalse();
  }

  @Test
  void notesEqualToACustomTemplateAreTemplateOnlyEvenWithProse() {
    String custom = "# Goal\nWrite the goal here.\n";

    assertThat(NotesForCompaction.isTemplateOnly(custom, Optional.of(custom))).isTrue();
    assertThat(NotesForCompaction.isTemplateOnly(custom, Optional.empty())).isFalse();
  }

  @Test
  void sectionsAreReadWithoutTheirItalicDescriptions() {
    String notes =
        TEMPLATE.replace("Immediate next steps._\n", "Immediate next steps._\nAdd the mutex.\n");

    assertThat(NotesForCompaction.sections(notes))
        .containsEntry("Current State", "Add the mutex.")
        .containsEntry("Session Title", "");
  }
}
