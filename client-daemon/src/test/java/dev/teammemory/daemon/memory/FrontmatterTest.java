package dev.teammemory.daemon.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FrontmatterTest {

  @Test
  void readsTheUsualFields() {
    Frontmatter frontmatter =
        Frontmatter.parse(
            """
            ---
            name: user_preferences
            description: User's coding style preferences
            type: feedback
            ---
            Use bun instead of npm.
            """);

    assertThat(frontmatter.string("name")).contains("user_preferences");
    assertThat(frontmatter.string("description")).contains("User's coding style preferences");
    assertThat(frontmatter.string("type")).contains("feedback");
  }

  @Test
  void aColonInAValueIsRescuedByTheQuotingRetry() {
    Frontmatter frontmatter =
        Frontmatter.parse(
            "---\nname: deploy\ndescription: Deploys: staging first, then prod [manual]\ntype: project\n---\n");

    assertThat(frontmatter.string("description"))
        .contains("Deploys: staging first, then prod [manual]");
    assertThat(frontmatter.string("type")).contains("project");
  }

  @Test
  void valuesStartingWithYamlIndicatorsAreRescuedToo() {
    Frontmatter frontmatter =
        Frontmatter.parse("---\ndescription: @team owns `make release` & *all* builds\n---\n");

    assertThat(frontmatter.string("description"))
        .contains("@team owns `make release` & *all* builds");
  }

  @Test
  void quotedValuesAndCommentsFollowYaml() {
    Frontmatter frontmatter =
        Frontmatter.parse(
            """
            ---
            # a comment line
            name: "Feedback — \\"no mocks\\""
            description: 'It''s about tests'   # trailing comment
            type: reference # also a comment
            ---
            """);

    assertThat(frontmatter.string("name")).contains("Feedback — \"no mocks\"");
    assertThat(frontmatter.string("description")).contains("It's about tests");
    assertThat(frontmatter.string("type")).contains("reference");
  }

  @Test
  void blockScalarsListsAndFoldedLinesAreUnderstood() {
    Frontmatter frontmatter =
        Frontmatter.parse(
            """
            ---
            description: >
              Integration tests hit
              a real database
            tags:
              - testing
              - database
            name: a long name
              continued here
            ---
            """);

    assertThat(frontmatter.string("description")).contains("Integration tests hit a real database");
    assertThat(frontmatter.values().get("tags")).isEqualTo(List.of("testing", "database"));
    assertThat(frontmatter.string("name")).contains("a long name continued here");
  }

  @Test
  void strayLinesAreSkippedOnTheSecondPass() {
    Frontmatter frontmatter =
        Frontmatter.parse("---\nname: x\nthis line is not yaml\ndescription: still read\n---\n");

    assertThat(frontmatter.string("description")).contains("still read");
  }

  @Test
  void withoutAClosingFenceOrAtTheStartThereIsNone() {
    assertThat(Frontmatter.parse("---\nname: x\ndescription: y\n")).isEqualTo(Frontmatter.NONE);
    assertThat(Frontmatter.parse("# Title\n---\nname: x\n---\n")).isEqualTo(Frontmatter.NONE);
    assertThat(Frontmatter.parse("")).isEqualTo(Frontmatter.NONE);
  }

  @Test
  void byteOrderMarksAndWindowsLineEndingsAreFine() {
    Frontmatter frontmatter =
        Frontmatter.parse("\uFEFF---\r\nname: x\r\ndescription: y\r\n---\r\nbody");

    assertThat(frontmatter.string("description")).contains("y");
  }

  @Test
  void anUnterminatedQuoteLeavesOnlyThatValueOut() {
    Frontmatter frontmatter = Frontmatter.parse("---\nname: \"broken\ndescription: fine\n---\n");

    assertThat(frontmatter.string("name")).isEmpty();
    assertThat(frontmatter.string("description")).contains("fine");
  }

  @Test
  void nullAndEmptyValuesAreAbsent() {
    Frontmatter frontmatter = Frontmatter.parse("---\nname: ~\ndescription:\ntype: null\n---\n");

    assertThat(frontmatter.string("name")).isEmpty();
    assertThat(frontmatter.string("description")).isEmpty();
    assertThat(frontmatter.string("type")).isEmpty();
  }

  @Test
  void anAliasBombIsNeverExpandedAndTheRestIsStillRead() {
    StringBuilder yaml = new StringBuilder("---\nname: bomb\na: &a [lol, lol, lol, lol, lol]\n");
    String previous = "a";
    for (char level = 'b'; level <= 'k'; level++) {
      yaml.append(level).append(": &").append(level).append(" [");
      for (int i = 0; i < 10; i++) {
        yaml.append(i == 0 ? "" : ", ").append('*').append(previous);
      }
      yaml.append("]\n");
      previous = String.valueOf(level);
    }
    Frontmatter frontmatter = Frontmatter.parse(yaml.append("---\n").toString());

    assertThat(frontmatter.string("name")).contains("bomb");
    // The loader refuses the aliases; the quoting retry then reads each value as plain text.
    assertThat(frontmatter.values().get("k"))
        .isEqualTo("&k [*j, *j, *j, *j, *j, *j, *j, *j, *j, *j]");
  }

  @Test
  void datesNumbersAndBooleansStayAsWritten() {
    Frontmatter frontmatter =
        Frontmatter.parse("---\nname: 2024-01-31\ndescription: 007\ntype: yes\n---\n");

    assertThat(frontmatter.string("name")).contains("2024-01-31");
    assertThat(frontmatter.string("description")).contains("007");
    assertThat(frontmatter.string("type")).contains("yes");
  }

  @Test
  void aNestedMappingIsKept() {
    Frontmatter frontmatter = Frontmatter.parse("---\nname: x\nmetadata:\n  type: feedback\n---\n");

    assertThat(frontmatter.values().get("metadata"))
        .isEqualTo(java.util.Map.of("type", "feedback"));
  }
}
