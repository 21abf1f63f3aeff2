package dev.teammemory.daemon.notes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NotesDocumentTest {

  @Test
  void anUnchangedDocumentRendersToTheSameText() {
    String filled =
        NotesTemplate.DEFAULT_TEMPLATE.replace(
            "_Step by step, what was attempted, done? Very terse summary for each step_\n",
            "_Step by step, what was attempted, done? Very terse summary for each step_\n1. did a thing\n\n\n");

    assertThat(NotesDocument.parse(NotesTemplate.DEFAULT_TEMPLATE).render())
        .isEqualTo(NotesTemplate.DEFAULT_TEMPLATE);
    assertThat(NotesDocument.parse(filled).render()).isEqualTo(filled);
  }

  @Test
  void theDefaultTemplateHasTenSectionsWithDescriptions() {
    NotesDocument document = NotesDocument.parse(NotesTemplate.DEFAULT_TEMPLATE);

    assertThat(document.sections())
        .extracting(NotesDocument.Section::title)
        .containsExactly(
            "Session Title",
            "Current State",
            "Task specification",
            "Files and Functions",
            "Workflow",
            "Errors & Corrections",
            "Codebase and System Documentation",
            "Learnings",
            "Key results",
            "Worklog");
    assertThat(document.sections()).allMatch(section -> section.description().isPresent());
  }

  @Test
  void replacingContentKeepsHeaderAndDescription() {
    NotesDocument document = NotesDocument.parse(NotesTemplate.DEFAULT_TEMPLATE);

    String updated =
        document.withContent(0, "Fix checkout discount").withContent(9, "1. one\n2. two").render();

    assertThat(updated)
        .startsWith(
            "\n# Session Title\n_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_\nFix checkout discount\n\n# Current State\n");
    assertThat(updated)
        .endsWith(
            "_Step by step, what was attempted, done? Very terse summary for each step_\n1. one\n2. two\n");
    assertThat(NotesDocument.parse(updated).structure()).isEqualTo(document.structure());
    assertThat(NotesDocument.parse(updated).sections().get(9).content())
        .isEqualTo("1. one\n2. two");
  }

  @Test
  void aChangedHeaderOrDescriptionChangesTheStructure() {
    NotesDocument original = NotesDocument.parse(NotesTemplate.DEFAULT_TEMPLATE);

    assertThat(
            NotesDocument.parse(NotesTemplate.DEFAULT_TEMPLATE.replace("# Worklog", "# Work log"))
                .structure())
        .isNotEqualTo(original.structure());
    assertThat(
            NotesDocument.parse(NotesTemplate.DEFAULT_TEMPLATE.replace("_Step by step", "_Steps"))
                .structure())
        .isNotEqualTo(original.structure());
    assertThat(NotesDocument.parse(NotesTemplate.DEFAULT_TEMPLATE + "# Extra\n").structure())
        .isNotEqualTo(original.structure());
  }
}
