package dev.teammemory.daemon.notes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.transcript.Tokens;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptBuilder;
import dev.teammemory.daemon.transcript.TranscriptTestResources;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OfflineNotesTest {

  private static NotesDocument notes(String transcript) throws IOException {
    String written =
        OfflineNotes.write(
            NotesTemplate.DEFAULT_TEMPLATE,
            Transcript.read(TranscriptTestResources.file(transcript)));
    NotesDocument document = NotesDocument.parse(written);
    assertThat(document.structure())
        .isEqualTo(NotesDocument.parse(NotesTemplate.DEFAULT_TEMPLATE).structure());
    return document;
  }

  private static String section(NotesDocument document, String title) {
    return document.sections().stream()
        .filter(section -> section.title().equals(title))
        .findFirst()
        .orElseThrow()
        .content();
  }

  @Test
  void fillsEverySectionTheTranscriptHasSomethingFor() throws IOException {
    NotesDocument document = notes("tool-pairs.jsonl");

    assertThat(section(document, "Session Title"))
        .isEqualTo("Fix the discount calculation in the checkout");
    assertThat(section(document, "Current State"))
        .isEqualTo(
            "- Latest request: No, don't touch total.ts again - the test fixture in total.test.ts still uses the old rounding. Update the fixture instead.\n"
                + "- Latest result: All 8 checkout tests pass. The bug was in total.ts: the discount was added to the subtotal instead of subtracted.\n"
                + "- Recently changed: src/checkout/total.test.ts, src/checkout/total.ts");
    assertThat(section(document, "Task specification"))
        .startsWith(
            "- Fix the discount calculation in the checkout: orders over 100 EUR should get 10% off, but the total is wrong.\n");
    assertThat(section(document, "Files and Functions"))
        .isEqualTo(
            "- src/checkout/total.test.ts — edited\n- src/checkout/total.ts — edited, read\n- src/checkout/discount.ts — read");
    assertThat(section(document, "Workflow")).isEqualTo("- `npm test -- checkout` (×2, failed 1)");
    assertThat(section(document, "Errors & Corrections"))
        .isEqualTo(
            "- Bash npm test -- checkout failed: FAIL src/checkout/total.test.ts → succeeded later\n"
                + "- User correction: \"No, don't touch total.ts again - the test fixture in total.test.ts still uses the old rounding. Update the fixture instead.\"");
    assertThat(section(document, "Codebase and System Documentation"))
        .isEqualTo("- src/checkout/ — 3 files: discount.ts, total.ts, total.test.ts");
    assertThat(section(document, "Learnings"))
        .isEqualTo(
            "- `npm test -- checkout` failed 1 time before it passed; see Errors & Corrections for what changed");
    assertThat(section(document, "Worklog"))
        .isEqualTo(
            "1. Fix the discount calculation in the checkout: orders over 100 EUR should get 10% off, but the total is wrong. — read"
                + " src/checkout/discount.ts, src/checkout/total.ts; changed src/checkout/total.ts; ran `npm test -- checkout` ✗; used Grep\n"
                + "2. No, don't touch total.ts again - the test fixture in total.test.ts still uses the old rounding. Update the fixture inst…"
                + " — changed src/checkout/total.test.ts; ran `npm test -- checkout` ✓");
  }

  @Test
  void recordsRefusalsInterruptionsAndCorrectionsAndAnswersTheQuestion() throws IOException {
    NotesDocument document = notes("errors-and-images.jsonl");

    assertThat(section(document, "Session Title"))
        .isEqualTo("The login page looks broken, see the screenshot");
    assertThat(section(document, "Errors & Corrections"))
        .isEqualTo(
            "- Bash npm run build failed: sh: 1: vite: not found\n"
                + "- The user refused Bash rm -rf node_modules && npm install\n"
                + "- The user interrupted the agent during Bash rm -rf node_modules && npm install\n"
                + "- User correction: \"Don't delete node_modules. Use npx vite build instead.\"");
    // The question's own turn was cut short; the answer came with the correction that followed.
    assertThat(section(document, "Key results"))
        .isEqualTo(
            "- \"Don't delete node_modules. Use npx vite build instead.\" → The build works with npx."
                + " The page breaks because the CSS import in src/login.tsx is missing in production builds.\n"
                + "- \"Here is our style guide, follow it.\" → Noted, I'll follow the style guide.");
    assertThat(section(document, "Learnings"))
        .isEqualTo(
            "- The user refused Bash `rm -rf node_modules && npm install`; next they said: \"Don't"
                + " delete node_modules. Use npx vite build instead.\"");
    assertThat(section(document, "Workflow"))
        .isEqualTo("- `npm run build` (failed)\n- `npx vite build`");
    assertThat(section(document, "Worklog"))
        .contains(
            "1. The login page looks broken, see the screenshot. Why does it happen? — ran `npm run build` ✗; the user refused Bash `rm -rf node_modules && npm install`");
    assertThat(section(document, "Files and Functions")).isEmpty();
  }

  @Test
  void coversTheWholeSessionAcrossACompaction() throws IOException {
    NotesDocument document = notes("compaction.jsonl");

    assertThat(section(document, "Session Title")).isEqualTo("Add rate limiting to the public API");
    assertThat(section(document, "Files and Functions"))
        .isEqualTo("- src/api/rateLimit.ts — written\n- src/api/server.ts — read");
    assertThat(section(document, "Worklog"))
        .isEqualTo(
            "1. Add rate limiting to the public API, 100 requests per minute per key. — read src/api/server.ts; changed src/api/rateLimit.ts");
  }

  @Test
  void sectionsTheWriterDoesNotKnowKeepTheirContent() {
    String custom =
        "# Title\n_Name it_\n\n# Open questions\n_What is unclear_\nIs the API public?\n\n# Worklog\n_Steps_\n";
    String transcript =
        new TranscriptBuilder("bbbb0001", "/p")
            .user("Ship the invoice export")
            .assistant("Done", 100)
            .build();

    String written = OfflineNotes.write(custom, Transcript.parse(transcript));

    assertThat(written)
        .isEqualTo(
            "# Title\n_Name it_\nShip the invoice export\n\n# Open questions\n_What is unclear_\nIs the API public?\n\n# Worklog\n_Steps_\n1. Ship the invoice export\n");
  }

  @Test
  void aHugeSessionStaysWithinTheBudgets() {
    TranscriptBuilder builder = new TranscriptBuilder("cccc0001", "/work/app");
    for (int i = 0; i < 600; i++) {
      builder.user(
          "Step "
              + i
              + ": change module "
              + i
              + " so that it handles the "
              + "edge case ".repeat(10));
      builder.toolCall(
          "Read",
          Map.of("file_path", "/work/app/src/module" + i + "/Main.java"),
          "class Main {}",
          false,
          20_000 + i);
      builder.toolCall(
          "Edit",
          Map.of(
              "file_path",
              "/work/app/src/module" + i + "/Main.java",
              "old_string",
              "a",
              "new_string",
              "b"),
          "ok",
          false,
          20_000 + i);
      builder.toolCall(
          "Bash",
          Map.of("command", "./gradlew :module" + i + ":test"),
          i % 3 == 0 ? "BUILD FAILED" : "BUILD SUCCESSFUL",
          i % 3 == 0,
          20_000 + i);
      builder.assistant("Module " + i + " now handles the edge case.", 20_000 + i);
    }

    String written =
        OfflineNotes.write(NotesTemplate.DEFAULT_TEMPLATE, Transcript.parse(builder.build()));

    NotesDocument document = NotesDocument.parse(written);
    assertThat(Tokens.rough(written)).isLessThanOrEqualTo(NotesTemplate.MAX_TOTAL_TOKENS);
    assertThat(document.sectionTokens().values())
        .allMatch(tokens -> tokens <= NotesTemplate.MAX_SECTION_TOKENS);
    assertThat(NotesTemplate.budgetReminders(written)).isEmpty();
    assertThat(section(document, "Worklog"))
        .startsWith("- … ")
        .endsWith("ran `./gradlew :module599:test` ✓");
    assertThat(section(document, "Files and Functions"))
        .startsWith("- src/module599/Main.java — edited, read")
        .endsWith(" more omitted");
  }
}
