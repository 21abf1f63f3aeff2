package dev.teammemory.daemon.compact;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SummaryPromptTest {

  @Test
  void theAnalysisScratchpadIsStrippedAndTheSummaryTagBecomesAHeading() {
    String answer =
        "<analysis>\nLet me think about the secret plan.\n</analysis>\n\n<summary>\n1. Primary Request and Intent:\n   Fix the race.\n</summary>";

    assertThat(SummaryPrompt.format(answer))
        .isEqualTo("Summary:\n1. Primary Request and Intent:\n   Fix the race.");
  }

  @Test
  void theRequestAsksForTextOnlyAndTheNineSections() {
    String request =
        SummaryPrompt.request("<conversation>\n</conversation>", java.util.Optional.empty());

    assertThat(request).startsWith(SummaryPrompt.PREAMBLE).endsWith(SummaryPrompt.REMINDER);
    assertThat(request).doesNotContain("Additional instructions:");
    assertThat(request)
        .contains(
            "1. Primary Request and Intent",
            "2. Key Technical Concepts",
            "3. Files and Code Sections",
            "4. Errors and fixes",
            "5. Problem Solving",
            "6. All user messages",
            "7. Pending Tasks",
            "8. Current Work",
            "9. Optional Next Step",
            "<analysis>");
  }

  @Test
  void thePromptHasNoRunsOfSpacesInsideItsSentences() {
    assertThat(SummaryPrompt.PREAMBLE + SummaryPrompt.TASK)
        .doesNotContainPattern("\\S {2,}\\S")
        .contains("Edit, Write or any other.")
        .contains("what changed, and the important snippets.");
  }
}
