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
      _A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_

      # Current State
      _What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps._

      # Task specification
      _What did the user ask to build? Any design decisions or other explanatory context_

      # Files and Functions
      _What are the important files? In short, what do they contain and why are they relevant?_

      # Workflow
      _What bash commands are usually run and in what order? How to interpret their output if not obvious?_

      # Errors & Corrections
      _Errors encountered and how they were fixed. What did the user correct? What approaches failed and should not be tried again?_

      # Codebase and System Documentation
      _What are the important system components? How do they work/fit together?_

      # Learnings
      _What has worked well? What has not? What to avoid? Do not duplicate items from other sections_

      # Key results
      _If the user asked a specific output such as an answer to a question, a table, or other document, repeat the exact result here_

      # Worklog
      _Step by step, what was attempted, done? Very terse summary for each step_
      """;

  static final String DEFAULT_PROMPT =
      """
      IMPORTANT: This message and these instructions are NOT part of the actual user conversation. \
      Do NOT include any references to "note-taking", "session notes extraction", or these update \
      instructions in the notes content.

      Based on the user conversation above (EXCLUDING this note-taking instruction message as well \
      as system prompt, claude.md entries, or any past session summaries), update the session notes \
      file.

      The file {{notesPath}} has already been read for you. Here are its current contents:
      <current_notes_content>
      {{currentNotes}}
      </current_notes_content>

      Your ONLY task is to use the Edit tool to update the notes file, then stop. You can make \
      multiple edits (update every section as needed) - make all Edit tool calls in parallel in a \
      single message. Do not call any other tools.

      CRITICAL RULES FOR EDITING:
      - The file must maintain its exact structure with all sections, headers, and italic \
      descriptions intact
      -- NEVER modify, delete, or add section headers (the lines starting with '#' like # Task \
      specification)
      -- NEVER modify or delete the italic _section description_ lines (these are the lines in \
      italics immediately following each header - they start and end with underscores)
      -- The italic _section descriptions_ are TEMPLATE INSTRUCTIONS that must be preserved exactly \
      as-is - they guide what content belongs in each section
      -- ONLY update the actual content that appears BELOW the italic _section descriptions_ within \
      each existing section
      -- Do NOT add any new sections, summaries, or information outside the existing structure
      - Do NOT reference this note-taking process or instructions anywhere in the notes
      - It's OK to skip updating a section if there are no substantial new insights to add. Do not \
      add filler content like "No info yet", just leave sections blank/unedited if appropriate.
      - Write DETAILED, INFO-DENSE content for each section - include specifics like file paths, \
      function names, error messages, exact commands, technical details, etc.
      - For "Key results", include the complete, exact output the user requested (e.g., full table, \
      full answer, etc.)
      - Do not include information that's already in the CLAUDE.md files included in the context
      - Keep each section under ~2000 tokens/words - if a section is approaching this limit, \
      condense it by cycling out less important details while preserving the most critical \
      information
      - Focus on actionable, specific information that would help someone understand or recreate \
      the work discussed in the conversation
      - IMPORTANT: Always update "Current State" to reflect the most recent work - this is critical \
      for continuity after compaction

      Use the Edit tool with file_path: {{notesPath}}

      STRUCTURE PRESERVATION REMINDER:
      Each section has TWO parts that must be preserved exactly as they appear in the current file:
      1. The section header (line starting with #)
      2. The italic description line (the _italicized text_ immediately after the header - this is \
      a template instruction)

      You ONLY update the actual content that comes AFTER these two preserved lines. The italic \
      description lines starting and ending with underscores are part of the template structure, \
      NOT content to be edited or removed.

      REMEMBER: Use the Edit tool in parallel and stop. Do not continue after the edits. Only \
      include insights from the actual user conversation, never from these note-taking \
      instructions. Do not delete or change section headers or italic _section descriptions_.""";

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
