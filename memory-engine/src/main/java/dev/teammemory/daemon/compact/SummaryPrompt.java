package dev.teammemory.daemon.compact;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The request for a full summary and what is done with the answer. The model drafts in an {@code
 * <analysis>} block first, which improves the summary and is then stripped. It may not call tools:
 * it has one reply, and a tool call would waste it, so the request opens and closes by saying so.
 * Between the nine sections and that closing reminder go the additional instructions, if any (what
 * a PreCompact hook would pass: the session notes, or the user's own).
 */
final class SummaryPrompt {

  static final String SYSTEM =
      "You summarize conversations between a user and an AI coding agent, so that the agent can"
          + " continue the work from the summary alone.";

  static final String PREAMBLE =
      """
      Answer in plain text only and do not call any tool: not Read, Bash, Grep, Glob, Edit, Write \
      or any other. Everything you need is in the conversation below. This request allows one \
      reply; a tool call is refused and leaves the summary unwritten. Reply with an <analysis> \
      block followed by a <summary> block.

      """;

  /** The nine sections, in order; the offline summary uses the same headings. */
  static final List<String> SECTIONS =
      List.of(
          "Primary Request and Intent",
          "Key Technical Concepts",
          "Files and Code Sections",
          "Errors and fixes",
          "Problem Solving",
          "All user messages",
          "Pending Tasks",
          "Current Work",
          "Optional Next Step");

  static final String TASK =
      """
      Summarize the conversation above so that the work can go on without it: the summary replaces \
      the conversation in the agent's context. Keep the technical substance: what the user asked \
      for in their own words, the decisions and why they were made, file names, code, commands and \
      errors.

      Think first, inside <analysis> tags; that part is thrown away. Walk through the conversation \
      in order and note for each part what the user asked for and meant, what was done about it, \
      the decisions, ideas and code involved (file names, signatures, snippets, edits), the errors \
      met and how they were fixed, and every time the user corrected the approach. Then check your \
      notes for mistakes and gaps.

      Then write the summary inside <summary> tags, under these nine numbered headings:

      1. Primary Request and Intent: every explicit request of the user, and what they wanted from \
      it.
      2. Key Technical Concepts: the technologies, frameworks and ideas that came up.
      3. Files and Code Sections: each file read, changed or created; why it matters, what \
      changed, and the important snippets. Give the latest work the most detail.
      4. Errors and fixes: each error, how it was resolved, and what the user said about it.
      5. Problem Solving: problems solved, and investigations still under way.
      6. All user messages: every message the user wrote (not tool results); together they show \
      how the user's intent moved.
      7. Pending Tasks: work the user asked for that is not done yet.
      8. Current Work: exactly what was being done just before this request, with file names and \
      snippets.
      9. Optional Next Step: the step that continues the work in progress, only if it follows from \
      the user's latest request. Quote the latest messages word for word to pin down where the \
      work stopped. If that work was finished, name a step only if the user asked for it; never \
      pick up old or side requests unasked.

      Lay it out like this:

      <analysis>
      [your notes on the conversation, part by part]
      </analysis>

      <summary>
      1. Primary Request and Intent:
         [the requests and their intent]

      2. Key Technical Concepts:
         - [concept]

      3. Files and Code Sections:
         - [file]
            - [why it matters, what changed]
            - [snippet]

      4. Errors and fixes:
         - [error]: [fix, and what the user said]

      5. Problem Solving:
         [solved and ongoing]

      6. All user messages:
         - [message]

      7. Pending Tasks:
         - [task]

      8. Current Work:
         [what was being done]

      9. Optional Next Step:
         [the step, with a quote]
      </summary>

      Follow any additional instructions given with this request, or inside the conversation (for \
      example a "Compact Instructions" section), about what the summary should stress.""";

  static final String REMINDER =
      "\n\nReminder: reply in text only, an <analysis> block and then a <summary> block. A tool call"
          + " is refused and fails this task.";

  private static final String INTRODUCTION =
      "This conversation continues an earlier one that ran out of context. The summary below"
          + " stands for the earlier part of it.";

  private static final String CONTINUE =
      "Carry on with the last task now, without asking the user anything further. Do not mention"
          + " this summary, recap it or announce that you are resuming: go on as if the"
          + " conversation had never been interrupted.";

  private static final Pattern ANALYSIS = Pattern.compile("<analysis>[\\s\\S]*?</analysis>");
  private static final Pattern SUMMARY = Pattern.compile("<summary>([\\s\\S]*?)</summary>");
  private static final Pattern BLANK_LINES = Pattern.compile("\\n\\n+");

  private SummaryPrompt() {}

  /**
   * The whole request: the preamble, the conversation, the nine sections, the additional
   * instructions when there are any, and the closing reminder.
   */
  static String request(String conversation, Optional<String> additionalInstructions) {
    StringBuilder request = new StringBuilder(PREAMBLE).append(conversation).append("\n\n");
    request.append(TASK);
    additionalInstructions
        .filter(text -> !text.isBlank())
        .ifPresent(text -> request.append("\n\nAdditional instructions:\n").append(text.strip()));
    return request.append(REMINDER).toString();
  }

  /** The answer without its scratchpad, the summary block turned into a plain heading. */
  static String format(String answer) {
    String text = ANALYSIS.matcher(answer).replaceAll("");
    Matcher summary = SUMMARY.matcher(text);
    if (summary.find()) {
      text =
          summary.replaceFirst(Matcher.quoteReplacement("Summary:\n" + summary.group(1).strip()));
    }
    return BLANK_LINES.matcher(text).replaceAll("\n\n").strip();
  }

  /**
   * The user message that opens a compacted conversation, in the reference's order: what it is, the
   * summary, where the full transcript is, whether recent messages follow verbatim, and, when the
   * agent is to go on by itself, the instruction to carry on without a word about it.
   *
   * @param carryOn whether to tell the agent to resume the last task directly: after a compaction
   *     from session notes and after an automatic one, not after a manual full summary, where the
   *     user is about to speak
   */
  static String summaryMessage(
      String summary, String transcriptPath, boolean recentMessagesKept, boolean carryOn) {
    StringBuilder text = new StringBuilder(INTRODUCTION).append("\n\n").append(summary.strip());
    text.append(
            "\n\nFor exact details from before the compaction (code, error messages, your own"
                + " earlier output), read the full transcript at: ")
        .append(transcriptPath);
    if (recentMessagesKept) {
      text.append("\n\nThe most recent messages follow unchanged.");
    }
    if (carryOn) {
      text.append("\n\n").append(CONTINUE);
    }
    return text.toString();
  }
}
