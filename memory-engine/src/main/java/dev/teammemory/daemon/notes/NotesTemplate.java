package dev.teammemory.daemon.notes;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.transcript.Tokens;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The notes template and the update prompt: the reference's defaults, or the user's own from {@code
 * <config home>/session-memory/config/template.md} and {@code prompt.md}. A custom prompt may use
 * {@code {{currentNotes}}} and {@code {{notesPath}}}.
 */
record NotesTemplate(String template, String prompt, boolean customTemplate, boolean customPrompt) {

  static final int MAX_SECTION_TOKENS = 2_000;
  static final int MAX_TOTAL_TOKENS = 12_000;

  static final String DEFAULT_TEMPLATE =
      """

      # Session Title
      _A short and distinctive 5-10 word descriptive title for the session. Super info dense, no \
      filler_

      # Current State
      _What is actively being worked on right now? Pending tasks not yet completed. Immediate next \
      steps._

      # Task specification
      _What did the user ask to build? Any design decisions or other explanatory context_

      # Files and Functions
      _What are the important files? In short, what do they contain and why are they relevant?_

      # Workflow
      _What bash commands are usually run and in what order? How to interpret their output if not \
      obvious?_

      # Errors & Corrections
      _Errors encountered and how they were fixed. What did the user correct? What approaches \
      failed and should not be tried again?_

      # Codebase and System Documentation
      _What are the important system components? How do they work/fit together?_

      # Learnings
      _What has worked well? What has not? What to avoid? Do not duplicate items from other \
      sections_

      # Key results
      _If the user asked a specific output such as an answer to a question, a table, or other \
      document, repeat the exact result here_

      # Worklog
      _Step by step, what was attempted, done? Very terse summary for each step_
      """;

  static final String DEFAULT_PROMPT =
      """
      This request is not part of the conversation above: it asks you to keep that conversation's \
      notes. Nothing about note-taking, or about this request, belongs in the notes.

      Update the session notes from the conversation above. Leave out this request, the system \
      prompt, CLAUDE.md and any earlier summary of the session.

      The notes file {{notesPath}} has been read for you; it holds:
      <current_notes_content>
      {{currentNotes}}
      </current_notes_content>

      Change it with the Edit tool and nothing else, then stop. Send all your edits at once, in \
      one message, one call per change.

      Keep the structure exactly as it is:
      - every header line (starting with '#') stays as written: none removed, changed or added;
      - every italic description line right under a header (between underscores) stays as written: \
      it says what the section is for;
      - write only below those two lines, inside the sections that exist; nothing outside them.

      What to write:
      - specifics: file paths, function names, exact commands and error messages, numbers;
      - under "Key results", the complete output the user asked for (the whole table, the whole \
      answer);
      - under "Current State", always the latest work: it is what carries the session over a \
      compaction;
      - nothing CLAUDE.md already says, and no filler: a section with nothing new stays as it is;
      - at most about 2,000 tokens a section: when one grows near that, condense it, keeping what \
      matters most.

      Use the Edit tool with file_path: {{notesPath}}

      Once more: the headers and the italic lines under them are part of the file's structure, not \
      content; edit only what follows them. Make your edits in parallel and stop; take nothing \
      from this request into the notes.""";

  private static final Pattern VARIABLE = Pattern.compile("\\{\\{(\\w+)\\}\\}");

  NotesTemplate {
    requireNonNull(template, "template is null");
    requireNonNull(prompt, "prompt is null");
  }

  static NotesTemplate defaults() {
    return new NotesTemplate(DEFAULT_TEMPLATE, DEFAULT_PROMPT, false, false);
  }

  /** The user's template and prompt where they exist, the defaults otherwise. */
  static NotesTemplate load(ClaudeLayout layout) throws IOException {
    Path config = layout.sessionMemoryConfig();
    String template = readIfPresent(config.resolve("template.md"));
    String prompt = readIfPresent(config.resolve("prompt.md"));
    return new NotesTemplate(
        template == null ? DEFAULT_TEMPLATE : template,
        prompt == null ? DEFAULT_PROMPT : prompt,
        template != null,
        prompt != null);
  }

  private static String readIfPresent(Path file) throws IOException {
    return SessionNotes.read(file).orElse(null);
  }

  /**
   * The prompt for one update: variables substituted in one pass (so notes that happen to contain
   * {@code {{notesPath}}} are left alone), then the condense instructions when the notes are over
   * budget.
   */
  String updatePrompt(String currentNotes, Path notesPath) {
    return substitute(
            prompt, Map.of("currentNotes", currentNotes, "notesPath", notesPath.toString()))
        + budgetReminders(currentNotes);
  }

  static String substitute(String text, Map<String, String> variables) {
    Matcher matcher = VARIABLE.matcher(text);
    StringBuilder result = new StringBuilder();
    while (matcher.find()) {
      String value = variables.get(matcher.group(1));
      matcher.appendReplacement(
          result, Matcher.quoteReplacement(value == null ? matcher.group() : value));
    }
    matcher.appendTail(result);
    return result.toString();
  }

  /**
   * The reference's reminders: condense the whole file past 12,000 tokens, and any section past
   * 2,000.
   */
  static String budgetReminders(String notes) {
    long total = Tokens.rough(notes);
    boolean overBudget = total > MAX_TOTAL_TOKENS;
    List<Map.Entry<String, Long>> oversized = new ArrayList<>();
    for (Map.Entry<String, Long> section : NotesDocument.parse(notes).sectionTokens().entrySet()) {
      if (section.getValue() > MAX_SECTION_TOKENS) {
        oversized.add(section);
      }
    }
    oversized.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()));
    if (oversized.isEmpty() && !overBudget) {
      return "";
    }
    StringBuilder reminders = new StringBuilder();
    if (overBudget) {
      reminders
          .append("\n\nCRITICAL: The session memory file is currently ~")
          .append(total)
          .append(" tokens, which exceeds the maximum of ")
          .append(MAX_TOTAL_TOKENS)
          .append(
              " tokens. You MUST condense the file to fit within this budget. Aggressively shorten"
                  + " oversized sections by removing less important details, merging related items,"
                  + " and summarizing older entries. Prioritize keeping \"Current State\" and \"Errors"
                  + " & Corrections\" accurate and detailed.");
    }
    if (!oversized.isEmpty()) {
      reminders
          .append("\n\n")
          .append(
              overBudget
                  ? "Oversized sections to condense"
                  : "IMPORTANT: The following sections exceed the per-section limit and MUST be condensed")
          .append(":");
      for (Map.Entry<String, Long> section : oversized) {
        reminders
            .append("\n- \"")
            .append(section.getKey())
            .append("\" is ~")
            .append(section.getValue())
            .append(" tokens (limit: ")
            .append(MAX_SECTION_TOKENS)
            .append(")");
      }
    }
    return reminders.toString();
  }
}
