package dev.teammemory.daemon.compact;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The request for a full summary and what is done with the answer. The model thinks in an {@code
 * <analysis>} scratchpad first, which improves the summary and is then stripped; it may not call
 * tools, since it has one turn and a tool call would waste it.
 */
final class SummaryPrompt {

  static final String SYSTEM =
      "You are a helpful AI assistant tasked with summarizing conversations.";

  static final String NO_TOOLS =
      """
      CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.

      - Tool calls will be REJECTED and will waste your only turn.
      - Your entire response must be plain text: an <analysis> block followed by a <summary> block.

      """;

  static final String PROMPT =
      """
      Your task is to create a detailed summary of the conversation so far, paying close attention \
      to the user's explicit requests and your previous actions.
      This summary should be thorough in capturing technical details, code patterns, and \
      architectural decisions that would be essential for continuing development work without \
      losing context.

      Before providing your final summary, wrap your analysis in <analysis> tags to organize your \
      thoughts and ensure you've covered all necessary points. In your analysis process:

      1. Chronologically analyze each message and section of the conversation. For each section \
      thoroughly identify:
         - The user's explicit requests and intents
         - Your approach to addressing the user's requests
         - Key decisions, technical concepts and code patterns
         - Specific details like file names, full code snippets, function signatures and file edits
         - Errors that you ran into and how you fixed them
         - Pay special attention to specific user feedback that you received, especially if the \
      user told you to do something differently.
      2. Double-check for technical accuracy and completeness, addressing each required element \
      thoroughly.

      Your summary should include the following sections:

      1. Primary Request and Intent: Capture all of the user's explicit requests and intents in detail
      2. Key Technical Concepts: List all important technical concepts, technologies, and \
      frameworks discussed.
      3. Files and Code Sections: Enumerate specific files and code sections examined, modified, or \
      created. Pay special attention to the most recent messages and include full code snippets \
      where applicable and include a summary of why this file read or edit is important.
      4. Errors and fixes: List all errors that you ran into, and how you fixed them. Pay special \
      attention to specific user feedback that you received, especially if the user told you to do \
      something differently.
      5. Problem Solving: Document problems solved and any ongoing troubleshooting efforts.
      6. All user messages: List ALL user messages that are not tool results. These are critical \
      for understanding the users' feedback and changing intent.
      7. Pending Tasks: Outline any pending tasks that you have explicitly been asked to work on.
      8. Current Work: Describe in detail precisely what was being worked on immediately before \
      this summary request, paying special attention to the most recent messages from both user \
      and assistant. Include file names and code snippets where applicable.
      9. Optional Next Step: List the next step that you will take that is related to the most \
      recent work you were doing. IMPORTANT: ensure that this step is DIRECTLY in line with the \
      user's most recent explicit requests, and the task you were working on immediately before \
      this summary request. If your last task was concluded, then only list next steps if they are \
      explicitly in line with the users request. Do not start on tangential requests or really old \
      requests that were already completed without confirming with the user first.
         If there is a next step, include direct quotes from the most recent conversation showing \
      exactly what task you were working on and where you left off. This should be verbatim to \
      ensure there's no drift in task interpretation.

      Here's an example of how your output should be structured:

      <example>
      <analysis>
      [Your thought process, ensuring all points are covered thoroughly and accurately]
      </analysis>

      <summary>
      1. Primary Request and Intent:
         [Detailed description]

      2. Key Technical Concepts:
         - [Concept 1]

      3. Files and Code Sections:
         - [File Name 1]
            - [Summary of why this file is important]

      4. Errors and fixes:
          - [Detailed description of error 1]:
            - [How you fixed the error]

      5. Problem Solving:
         [Description of solved problems and ongoing troubleshooting]

      6. All user messages:
          - [Detailed non tool use user message]

      7. Pending Tasks:
         - [Task 1]

      8. Current Work:
         [Precise description of current work]

      9. Optional Next Step:
         [Optional Next step to take]

      </summary>
      </example>

      Please provide your summary based on the conversation so far, following this structure and \
      ensuring precision and thoroughness in your response.""";

  static final String INTRODUCTION =
      "This session is being continued from a previous conversation that ran out of context. The"
          + " summary below covers the earlier portion of the conversation.";

  private static final Pattern ANALYSIS = Pattern.compile("<analysis>[\\s\\S]*?</analysis>");
  private static final Pattern SUMMARY = Pattern.compile("<summary>([\\s\\S]*?)</summary>");
  private static final Pattern BLANK_LINES = Pattern.compile("\\n\\n+");

  private SummaryPrompt() {}

  /** The whole request: the conversation, then the instructions. */
  static String request(String conversation) {
    return NO_TOOLS + conversation + "\n\n" + PROMPT;
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

  /** The user message that opens a compacted conversation. */
  static String summaryMessage(String summary, String transcriptPath, boolean recentMessagesKept) {
    StringBuilder text = new StringBuilder(INTRODUCTION).append("\n\n").append(summary.strip());
    if (recentMessagesKept) {
      text.append("\n\nRecent messages are preserved verbatim.");
    }
    text.append(
            "\n\nIf you need specific details from before compaction (like exact code snippets,"
                + " error messages, or content you generated), read the full transcript at: ")
        .append(transcriptPath);
    return text.toString();
  }
}
