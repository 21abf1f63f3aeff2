package dev.teammemory.daemon.compact;

import dev.teammemory.daemon.transcript.ContentBlock;
import dev.teammemory.daemon.transcript.Replies;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Level 2 without a model: the nine sections written from what the transcript records and what the
 * session notes already say. The user's messages are quoted verbatim (cut when very long), as the
 * reference insists, since they carry the intent that must not drift.
 */
final class OfflineSummary {

  private static final int MAX_USER_MESSAGE = 1_500;
  private static final int MAX_USER_MESSAGES_TOTAL = 12_000;
  private static final int MAX_ERROR_LINE = 300;
  private static final int MAX_ITEMS = 30;

  private OfflineSummary() {}

  static String summarize(List<TranscriptEntry> messages, Optional<String> notes) {
    Map<String, String> sections = notes.map(NotesForCompaction::sections).orElse(Map.of());
    List<TranscriptEntry> human = messages.stream().filter(TranscriptEntry::isHumanTurn).toList();
    StringBuilder summary = new StringBuilder("Summary:");

    section(
        summary,
        1,
        "Primary Request and Intent",
        join(
            human.stream()
                .limit(3)
                .map(message -> "\"" + cut(message.text().strip(), 600) + "\"")
                .toList(),
            section(sections, "task")));
    section(
        summary,
        2,
        "Key Technical Concepts",
        join(List.of(), section(sections, "codebase"), section(sections, "learnings")));
    section(
        summary, 3, "Files and Code Sections", join(files(messages), section(sections, "files")));
    section(summary, 4, "Errors and fixes", join(errors(messages), section(sections, "errors")));
    section(summary, 5, "Problem Solving", join(results(messages), section(sections, "worklog")));
    section(summary, 6, "All user messages", join(userMessages(human)));
    section(summary, 7, "Pending Tasks", join(List.of(), section(sections, "current state")));
    section(summary, 8, "Current Work", join(currentWork(messages, human)));
    section(summary, 9, "Optional Next Step", join(nextStep(messages, human)));
    return summary.toString().strip();
  }

  private static void section(StringBuilder summary, int number, String title, String body) {
    summary
        .append(number == 1 ? "\n" : "\n\n")
        .append(number)
        .append(". ")
        .append(title)
        .append(":");
    String content = body.isBlank() ? "(nothing recorded)" : body;
    for (String line : content.split("\n", -1)) {
      summary.append("\n   ").append(line);
    }
  }

  @SafeVarargs
  private static String join(List<String> items, Optional<String>... notes) {
    List<String> parts = new ArrayList<>();
    items.stream().limit(MAX_ITEMS).map(item -> "- " + item).forEach(parts::add);
    for (Optional<String> note : notes) {
      note.filter(text -> !text.isBlank())
          .ifPresent(text -> parts.add("From the session notes:\n" + text));
    }
    return String.join("\n", parts);
  }

  /** The notes section whose title contains the word, if the notes have one with content. */
  private static Optional<String> section(Map<String, String> sections, String word) {
    return sections.entrySet().stream()
        .filter(entry -> entry.getKey().toLowerCase(Locale.ROOT).contains(word))
        .map(Map.Entry::getValue)
        .filter(text -> !text.isBlank())
        .findFirst();
  }

  private static List<String> files(List<TranscriptEntry> messages) {
    Map<String, String> files = new LinkedHashMap<>();
    for (TranscriptEntry message : messages) {
      for (ContentBlock.ToolUse use : message.toolUses()) {
        Optional<String> path =
            use.stringInput("file_path").or(() -> use.stringInput("notebook_path"));
        if (path.isEmpty()) {
          continue;
        }
        String action =
            switch (use.name()) {
              case "Read" -> "read";
              case "Write" -> "written";
              case "Edit", "MultiEdit", "NotebookEdit" -> "edited";
              default -> use.name();
            };
        files.merge(
            path.get(),
            action,
            (before, now) -> before.contains(now) ? before : before + ", " + now);
      }
    }
    List<String> lines = new ArrayList<>();
    files.forEach((path, actions) -> lines.add(path + " (" + actions + ")"));
    return lines;
  }

  private static List<String> errors(List<TranscriptEntry> messages) {
    Map<String, ContentBlock.ToolUse> calls = new LinkedHashMap<>();
    List<String> errors = new ArrayList<>();
    for (TranscriptEntry message : messages) {
      message.toolUses().forEach(use -> calls.put(use.id(), use));
      for (ContentBlock.ToolResult result : message.toolResults()) {
        if (!result.isError()) {
          continue;
        }
        ContentBlock.ToolUse call = calls.get(result.toolUseId());
        String firstLine = result.text().strip().lines().findFirst().orElse("(no message)");
        errors.add(
            (call == null ? "a tool" : call.name()) + " failed: " + cut(firstLine, MAX_ERROR_LINE));
      }
    }
    return errors;
  }

  private static List<String> userMessages(List<TranscriptEntry> human) {
    List<String> quoted = new ArrayList<>();
    int total = 0;
    // The most recent messages matter most; older ones give way when the budget runs out.
    for (int i = human.size() - 1; i >= 0; i--) {
      String text = "\"" + cut(human.get(i).text().strip(), MAX_USER_MESSAGE) + "\"";
      if (total + text.length() > MAX_USER_MESSAGES_TOTAL) {
        quoted.add(0, "(" + (i + 1) + " earlier messages are in the full transcript)");
        break;
      }
      quoted.add(0, text);
      total += text.length();
    }
    return quoted;
  }

  /**
   * What each request came to: the last reply before the next request that says something (a
   * closing "Understood." or "You're welcome!" is no result).
   */
  private static List<String> results(List<TranscriptEntry> messages) {
    List<String> lines = new ArrayList<>();
    TranscriptEntry request = null;
    int from = 0;
    for (int i = 0; i <= messages.size(); i++) {
      if (i == messages.size() || messages.get(i).isHumanTurn()) {
        if (request != null) {
          Optional<String> result = Replies.result(messages.subList(from, i));
          if (result.isPresent()) {
            lines.add(
                "\""
                    + cut(request.text().strip(), 200)
                    + "\" → "
                    + cut(result.get().replaceAll("\\s+", " "), 700));
          }
        }
        if (i < messages.size()) {
          request = messages.get(i);
          from = i + 1;
        }
      }
    }
    return lines;
  }

  private static List<String> currentWork(
      List<TranscriptEntry> messages, List<TranscriptEntry> human) {
    List<String> lines = new ArrayList<>();
    if (!human.isEmpty()) {
      lines.add("The user's latest request: \"" + cut(human.getLast().text().strip(), 800) + "\"");
    }
    Replies.result(messages)
        .ifPresent(
            result -> lines.add("The assistant's latest result: \"" + cut(result, 800) + "\""));
    return lines;
  }

  /**
   * The open task: a tool call still waiting for its result, else the latest request that asks for
   * work (not a thank-you, a yes or a stated preference) when its turn has not come to a result.
   * When the latest task was finished, there is no next step to take unasked.
   */
  private static List<String> nextStep(
      List<TranscriptEntry> messages, List<TranscriptEntry> human) {
    int task = -1;
    for (int i = messages.size() - 1; i >= 0 && task < 0; i--) {
      if (messages.get(i).isHumanTurn() && asksForWork(messages.get(i).text())) {
        task = i;
      }
    }
    String request = task < 0 ? "" : "\"" + cut(messages.get(task).text().strip(), 400) + "\"";
    for (int i = messages.size() - 1; i >= 0; i--) {
      TranscriptEntry message = messages.get(i);
      if (message.isAssistant() && message.hasToolUse()) {
        boolean answered =
            messages.subList(i + 1, messages.size()).stream()
                .anyMatch(later -> !later.toolResults().isEmpty());
        if (!answered) {
          ContentBlock.ToolUse use = message.toolUses().getLast();
          return List.of(
              "Finish the pending "
                  + use.name()
                  + " call ("
                  + cut(use.input().toString(), 300)
                  + ")"
                  + (task < 0 ? "" : " for the latest task: " + request));
        }
      }
      if (message.isAssistant()) {
        break;
      }
    }
    if (task < 0) {
      return List.of();
    }
    // The task's own turn: up to the next thing the user typed, or an interruption.
    int end = task + 1;
    while (end < messages.size()
        && !messages.get(end).isHumanTurn()
        && !messages.get(end).isInterruption()) {
      end++;
    }
    List<TranscriptEntry> turn = messages.subList(task + 1, end);
    boolean interrupted = end < messages.size() && messages.get(end).isInterruption();
    boolean finished =
        !interrupted
            && !turn.isEmpty()
            && turn.getLast().isAssistant()
            && !turn.getLast().hasToolUse()
            && Replies.result(turn).isPresent();
    return finished
        ? List.of(
            "None unless the user asks: the latest task, "
                + request
                + ", came to a result (see Current Work).")
        : List.of("Continue the latest task: " + request);
  }

  private static final Pattern NOT_WORK =
      Pattern.compile(
          "^(?:(?:ok|okay|yes|yep|yeah|no|thanks|thank you|thx|great|good|perfect|nice|cool|got it"
              + "|sounds good|looks good|lgtm|好的?|谢谢|明白了?|可以|行)\\b[\\s,.!。！]*)+$"
              + "|^(?:I (?:always |really |generally )?prefer|I'?d rather|I like|from now on"
              + "|(?:please )?remember|keep in mind|fyi|for context)\\b",
          Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  /** Whether a message asks for work rather than thanking, agreeing or stating a preference. */
  static boolean asksForWork(String text) {
    String stripped = text.strip();
    return !stripped.isEmpty() && !NOT_WORK.matcher(stripped).find();
  }

  private static String cut(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + " …";
  }
}
