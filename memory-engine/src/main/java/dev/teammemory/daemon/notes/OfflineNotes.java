package dev.teammemory.daemon.notes;

import dev.teammemory.daemon.transcript.ContentBlock;
import dev.teammemory.daemon.transcript.Replies;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Session notes without a model: every section is filled from what the transcript records. The
 * title comes from the first request; the current state from the latest turns; files from the Read,
 * Edit and Write calls; the workflow from Bash commands; errors from failing tool results,
 * interruptions, refused tool calls and user corrections; learnings from refused calls and what the
 * user asked for instead, and from commands that failed before they passed; key results from what
 * each request came to (the last reply that says something, never a closing "Understood."); the
 * worklog from the steps taken. The section budgets (2,000 tokens each, 12,000 in all) are kept by
 * dropping the oldest or least important lines first. Sections with nothing to say are left blank,
 * as the reference asks.
 */
final class OfflineNotes {

  private static final int CHARACTERS_PER_TOKEN = 4;
  private static final int MAX_SECTION_CHARACTERS =
      NotesTemplate.MAX_SECTION_TOKENS * CHARACTERS_PER_TOKEN;

  /** Below the 12,000-token ceiling, leaving room for the headers and descriptions. */
  private static final int MAX_TOTAL_CHARACTERS =
      (NotesTemplate.MAX_TOTAL_TOKENS - 1_000) * CHARACTERS_PER_TOKEN;

  private static final Pattern WHITESPACE = Pattern.compile("\\s+");
  private static final Pattern CORRECTION =
      Pattern.compile(
          "^(no\\b|nope\\b|don'?t\\b|do not\\b|stop\\b|wrong\\b|that'?s (not|wrong)|not (that|what|like)|"
              + "instead\\b|actually\\b|rather\\b|revert\\b|undo\\b|why did you\\b|you (should|shouldn'?t|"
              + "must|forgot|broke)\\b|please (don'?t|do not|stop|revert|undo)\\b|never\\b)",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern ERROR_LINE =
      Pattern.compile(
          "(error|exception|failed|failure|fatal|cannot|can't|could not|not found|denied|refused|"
              + "traceback|panic|FAIL|✗)",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern SENTENCE_END = Pattern.compile("[.?!:](\\s|$)");
  private static final String REJECTED_TOOL_USE = "doesn't want to proceed with this tool use";

  private OfflineNotes() {}

  /** The sections this writer knows, matched to a template's headers by their words. */
  enum Kind {
    TITLE,
    CURRENT_STATE,
    TASK,
    FILES,
    WORKFLOW,
    ERRORS,
    CODEBASE,
    LEARNINGS,
    KEY_RESULTS,
    WORKLOG;

    static Optional<Kind> of(String title) {
      String t = title.toLowerCase(Locale.ROOT);
      if (t.contains("title")) {
        return Optional.of(TITLE);
      }
      if (t.contains("current state") || t.contains("status")) {
        return Optional.of(CURRENT_STATE);
      }
      if (t.contains("task") || t.contains("specification") || t.contains("goal")) {
        return Optional.of(TASK);
      }
      if (t.contains("file")) {
        return Optional.of(FILES);
      }
      if (t.contains("workflow") || t.contains("command")) {
        return Optional.of(WORKFLOW);
      }
      if (t.contains("error") || t.contains("correction")) {
        return Optional.of(ERRORS);
      }
      if (t.contains("codebase") || t.contains("system") || t.contains("documentation")) {
        return Optional.of(CODEBASE);
      }
      if (t.contains("learning") || t.contains("lesson")) {
        return Optional.of(LEARNINGS);
      }
      if (t.contains("result") || t.contains("answer")) {
        return Optional.of(KEY_RESULTS);
      }
      if (t.contains("worklog") || t.contains("log") || t.contains("steps")) {
        return Optional.of(WORKLOG);
      }
      return Optional.empty();
    }
  }

  /**
   * Fills {@code current}'s sections from the transcript. Sections this writer cannot derive
   * anything for keep their content; headers and descriptions are never touched.
   */
  static String write(String current, Transcript transcript) {
    NotesDocument document = NotesDocument.parse(current);
    Map<Kind, Section> derived = derive(transcript);
    Map<Integer, Section> planned = new LinkedHashMap<>();
    for (int i = 0; i < document.sections().size(); i++) {
      Optional<Kind> kind = Kind.of(document.sections().get(i).title());
      if (kind.isPresent()
          && derived.containsKey(kind.get())
          && !derived.get(kind.get()).items().isEmpty()) {
        planned.put(i, derived.get(kind.get()));
      }
    }
    Map<Integer, Integer> budgets = budgets(planned);
    NotesDocument updated = document;
    for (Map.Entry<Integer, Section> entry : planned.entrySet()) {
      updated =
          updated.withContent(entry.getKey(), entry.getValue().render(budgets.get(entry.getKey())));
    }
    return updated.render();
  }

  /**
   * A section's lines, with which end to keep when it has to shrink.
   *
   * @param keepNewest drop from the front (a log) rather than from the back (a ranked list)
   */
  record Section(List<String> items, boolean keepNewest) {
    Section {
      items = List.copyOf(items);
    }

    int length() {
      return items.stream().mapToInt(item -> item.length() + 1).sum();
    }

    String render(int budget) {
      if (length() <= budget) {
        return String.join("\n", items);
      }
      List<String> kept = new ArrayList<>();
      int used = 40; // room for the omission line
      if (keepNewest) {
        for (int i = items.size() - 1; i >= 0 && used + items.get(i).length() + 1 <= budget; i--) {
          kept.addFirst(items.get(i));
          used += items.get(i).length() + 1;
        }
        int omitted = items.size() - kept.size();
        if (omitted > 0) {
          kept.addFirst(
              "- … " + omitted + " earlier " + (omitted == 1 ? "entry" : "entries") + " omitted");
        }
      } else {
        for (int i = 0; i < items.size() && used + items.get(i).length() + 1 <= budget; i++) {
          kept.add(items.get(i));
          used += items.get(i).length() + 1;
        }
        int omitted = items.size() - kept.size();
        if (omitted > 0) {
          kept.add("- … " + omitted + " more omitted");
        }
      }
      if (kept.isEmpty() || (kept.size() == 1 && kept.getFirst().startsWith("- … "))) {
        // A single item longer than the budget: keep its start.
        String first = keepNewest ? items.getLast() : items.getFirst();
        return first.substring(0, Math.max(0, Math.min(first.length(), budget - 1))) + "…";
      }
      return String.join("\n", kept);
    }
  }

  /** Shares the total among sections: small ones keep all they need, large ones split the rest. */
  static Map<Integer, Integer> budgets(Map<Integer, Section> sections) {
    Map<Integer, Integer> budgets = new HashMap<>();
    Map<Integer, Integer> needs = new HashMap<>();
    sections.forEach(
        (index, section) -> needs.put(index, Math.min(section.length(), MAX_SECTION_CHARACTERS)));
    int remaining = MAX_TOTAL_CHARACTERS;
    List<Integer> open = new ArrayList<>(needs.keySet());
    open.sort((a, b) -> Integer.compare(needs.get(a), needs.get(b)));
    while (!open.isEmpty()) {
      int share = remaining / open.size();
      Integer smallest = open.getFirst();
      if (needs.get(smallest) <= share) {
        budgets.put(smallest, needs.get(smallest));
        remaining -= needs.get(smallest);
        open.removeFirst();
      } else {
        for (Integer index : open) {
          budgets.put(index, share);
        }
        break;
      }
    }
    return budgets;
  }

  /** One tool call with its result, in conversation order. */
  private record Call(
      String name,
      String summary,
      Optional<String> file,
      boolean failed,
      String errorLine,
      boolean rejected,
      int step) {}

  private static Map<Kind, Section> derive(Transcript transcript) {
    List<TranscriptEntry> messages = transcript.messages();
    String cwd = transcript.cwd().orElse("");
    Map<String, ContentBlock.ToolResult> results = new HashMap<>();
    for (TranscriptEntry message : messages) {
      for (ContentBlock.ToolResult result : message.toolResults()) {
        results.put(result.toolUseId(), result);
      }
    }
    List<TranscriptEntry> requests = new ArrayList<>();
    List<Call> calls = new ArrayList<>();
    List<String> corrections = new ArrayList<>();
    List<String> interruptions = new ArrayList<>();
    Map<Integer, String> lastTextInStep = new HashMap<>();
    int step = 0;
    String lastAssistantText = "";
    for (TranscriptEntry message : messages) {
      if (message.isHumanTurn()) {
        requests.add(message);
        step = requests.size();
        if (step > 1 && CORRECTION.matcher(message.text().strip()).find()) {
          corrections.add(oneLine(message.text(), 300));
        }
        continue;
      }
      if (message.isInterruption()) {
        Call previous = calls.isEmpty() ? null : calls.getLast();
        interruptions.add(
            previous == null
                ? "the user interrupted the agent"
                : "the user interrupted the agent during "
                    + previous.name()
                    + " "
                    + previous.summary());
        continue;
      }
      if (!message.isAssistant()) {
        continue;
      }
      // A closing "Understood." or "You're welcome!" is no result: the reply before it is.
      if (message.hasText() && !Replies.isAcknowledgement(message.text())) {
        lastAssistantText = message.text().strip();
        lastTextInStep.put(step, lastAssistantText);
      }
      for (ContentBlock.ToolUse use : message.toolUses()) {
        ContentBlock.ToolResult result = results.get(use.id());
        String resultText = result == null ? "" : result.text();
        boolean rejected = result != null && resultText.contains(REJECTED_TOOL_USE);
        boolean failed = result != null && result.isError() && !rejected;
        calls.add(
            new Call(
                use.name(),
                summary(use, cwd),
                file(use).map(path -> relative(path, cwd)),
                failed,
                failed ? errorLine(resultText) : "",
                rejected,
                step));
      }
    }

    Map<Kind, Section> sections = new LinkedHashMap<>();
    sections.put(Kind.TITLE, new Section(title(requests), false));
    sections.put(
        Kind.CURRENT_STATE,
        new Section(currentState(requests, calls, messages, lastAssistantText), false));
    sections.put(
        Kind.TASK,
        new Section(
            requests.stream().map(request -> "- " + oneLine(request.text(), 500)).toList(), true));
    sections.put(Kind.FILES, new Section(files(calls), false));
    sections.put(Kind.WORKFLOW, new Section(workflow(calls), false));
    sections.put(Kind.ERRORS, new Section(errors(calls, corrections, interruptions), true));
    sections.put(Kind.CODEBASE, new Section(codebase(calls), false));
    sections.put(Kind.LEARNINGS, new Section(learnings(calls, requests), false));
    sections.put(Kind.KEY_RESULTS, new Section(keyResults(requests, lastTextInStep), true));
    sections.put(Kind.WORKLOG, new Section(worklog(requests, calls), true));
    return sections;
  }

  /**
   * The first request's opening sentence, at most ten words: when longer, cut at its last comma
   * within them, else after the tenth word.
   */
  private static List<String> title(List<TranscriptEntry> requests) {
    if (requests.isEmpty()) {
      return List.of();
    }
    String first = "";
    for (String line : requests.getFirst().text().split("\n")) {
      if (!line.isBlank()) {
        first = line;
        break;
      }
    }
    String cleaned =
        WHITESPACE.matcher(first.replaceAll("[`*_#>\\[\\]]", " ")).replaceAll(" ").strip();
    Matcher sentence = SENTENCE_END.matcher(cleaned);
    if (sentence.find() && cleaned.substring(0, sentence.start()).split(" ").length >= 3) {
      cleaned = cleaned.substring(0, sentence.start());
    }
    String[] words = cleaned.split(" ");
    if (words.length > 10) {
      String tenWords = String.join(" ", List.of(words).subList(0, 10));
      int comma = tenWords.lastIndexOf(',');
      cleaned =
          comma > 0 && tenWords.substring(0, comma).split(" ").length >= 3
              ? tenWords.substring(0, comma)
              : tenWords;
    }
    String text = cleaned.replaceAll("[.,;:!?]+$", "").strip();
    return text.isEmpty()
        ? List.of()
        : List.of(Character.toUpperCase(text.charAt(0)) + text.substring(1));
  }

  private static List<String> currentState(
      List<TranscriptEntry> requests,
      List<Call> calls,
      List<TranscriptEntry> messages,
      String lastAssistantText) {
    List<String> lines = new ArrayList<>();
    if (!requests.isEmpty()) {
      lines.add("- Latest request: " + oneLine(requests.getLast().text(), 400));
    }
    if (NotesTrigger.hasToolCallsInLastAssistantTurn(messages) && !calls.isEmpty()) {
      Call pending = calls.getLast();
      lines.add("- In progress: " + pending.name() + " " + pending.summary());
    }
    if (!lastAssistantText.isEmpty()) {
      lines.add("- Latest result: " + oneLine(lastAssistantText, 600));
    }
    List<String> recentEdits = new ArrayList<>();
    for (int i = calls.size() - 1; i >= 0 && recentEdits.size() < 5; i--) {
      Call call = calls.get(i);
      if (isEdit(call.name())
          && call.file().isPresent()
          && !call.failed()
          && !recentEdits.contains(call.file().get())) {
        recentEdits.add(call.file().get());
      }
    }
    if (!recentEdits.isEmpty()) {
      lines.add("- Recently changed: " + String.join(", ", recentEdits));
    }
    for (int i = calls.size() - 1; i >= 0; i--) {
      Call call = calls.get(i);
      if (call.name().equals("Bash")) {
        if (call.failed()) {
          lines.add("- Last command failed: `" + call.summary() + "` — " + call.errorLine());
        }
        break;
      }
    }
    return lines;
  }

  private static List<String> files(List<Call> calls) {
    record Touches(int reads, int edits, int writes, int lastIndex) {}
    Map<String, Touches> touched = new LinkedHashMap<>();
    for (int i = 0; i < calls.size(); i++) {
      Call call = calls.get(i);
      if (call.file().isEmpty() || call.failed() || call.rejected()) {
        continue;
      }
      Touches before = touched.getOrDefault(call.file().get(), new Touches(0, 0, 0, i));
      boolean write = call.name().equals("Write");
      boolean read = call.name().equals("Read");
      touched.put(
          call.file().get(),
          new Touches(
              before.reads() + (read ? 1 : 0),
              before.edits() + (!read && !write ? 1 : 0),
              before.writes() + (write ? 1 : 0),
              i));
    }
    List<Map.Entry<String, Touches>> ordered = new ArrayList<>(touched.entrySet());
    // Changed files first, then by how recently they were touched.
    ordered.sort(
        (a, b) -> {
          boolean aChanged = a.getValue().edits() + a.getValue().writes() > 0;
          boolean bChanged = b.getValue().edits() + b.getValue().writes() > 0;
          if (aChanged != bChanged) {
            return aChanged ? -1 : 1;
          }
          return Integer.compare(b.getValue().lastIndex(), a.getValue().lastIndex());
        });
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, Touches> entry : ordered) {
      Touches t = entry.getValue();
      List<String> how = new ArrayList<>();
      if (t.writes() > 0) {
        how.add("written" + times(t.writes()));
      }
      if (t.edits() > 0) {
        how.add("edited" + times(t.edits()));
      }
      if (t.reads() > 0) {
        how.add("read" + times(t.reads()));
      }
      lines.add("- " + entry.getKey() + " — " + String.join(", ", how));
    }
    return lines;
  }

  private static List<String> workflow(List<Call> calls) {
    record Usage(int runs, int failures) {}
    Map<String, Usage> commands = new LinkedHashMap<>();
    for (Call call : calls) {
      if (!call.name().equals("Bash") || call.rejected()) {
        continue;
      }
      Usage before = commands.getOrDefault(call.summary(), new Usage(0, 0));
      commands.put(
          call.summary(),
          new Usage(before.runs() + 1, before.failures() + (call.failed() ? 1 : 0)));
    }
    List<String> lines = new ArrayList<>();
    commands.forEach(
        (command, usage) -> {
          String counts =
              usage.runs() > 1
                  ? " (×"
                      + usage.runs()
                      + (usage.failures() > 0 ? ", failed " + usage.failures() : "")
                      + ")"
                  : usage.failures() > 0 ? " (failed)" : "";
          lines.add("- `" + command + "`" + counts);
        });
    return lines;
  }

  private static List<String> errors(
      List<Call> calls, List<String> corrections, List<String> interruptions) {
    List<String> lines = new ArrayList<>();
    Map<String, Boolean> seen = new HashMap<>();
    // Where each call last succeeded, to tell errors that were later overcome.
    Map<String, Integer> lastSuccess = new HashMap<>();
    for (int i = 0; i < calls.size(); i++) {
      Call call = calls.get(i);
      if (!call.failed() && !call.rejected()) {
        lastSuccess.put(call.name() + " " + call.summary(), i);
      }
    }
    for (int i = 0; i < calls.size(); i++) {
      Call call = calls.get(i);
      if (call.rejected()) {
        lines.add("- The user refused " + call.name() + " " + call.summary());
        continue;
      }
      if (!call.failed()) {
        continue;
      }
      String key = call.name() + " " + call.summary() + " " + call.errorLine();
      if (seen.putIfAbsent(key, true) != null) {
        continue;
      }
      boolean fixedLater = lastSuccess.getOrDefault(call.name() + " " + call.summary(), -1) > i;
      lines.add(
          "- "
              + call.name()
              + " "
              + call.summary()
              + " failed: "
              + call.errorLine()
              + (fixedLater ? " → succeeded later" : ""));
    }
    interruptions.forEach(interruption -> lines.add("- " + capitalize(interruption)));
    corrections.forEach(correction -> lines.add("- User correction: \"" + correction + "\""));
    return lines;
  }

  private static List<String> codebase(List<Call> calls) {
    Map<String, List<String>> directories = new LinkedHashMap<>();
    List<String> documents = new ArrayList<>();
    List<String> references = new ArrayList<>();
    for (Call call : calls) {
      if (call.failed()) {
        continue;
      }
      if (call.file().isPresent()) {
        String file = call.file().get();
        int slash = file.lastIndexOf('/');
        String directory = slash > 0 ? file.substring(0, slash + 1) : "./";
        String name = file.substring(slash + 1);
        List<String> names = directories.computeIfAbsent(directory, key -> new ArrayList<>());
        if (!names.contains(name)) {
          names.add(name);
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (call.name().equals("Read")
            && (lower.endsWith(".md") || lower.startsWith("readme") || file.contains("/docs/"))
            && !documents.contains(file)) {
          documents.add(file);
        }
      }
      if ((call.name().equals("WebFetch") || call.name().equals("WebSearch"))
          && !references.contains(call.summary())) {
        references.add(call.summary());
      }
    }
    List<String> lines = new ArrayList<>();
    directories.forEach(
        (directory, names) ->
            lines.add(
                "- "
                    + directory
                    + " — "
                    + names.size()
                    + (names.size() == 1 ? " file: " : " files: ")
                    + String.join(", ", names.subList(0, Math.min(names.size(), 8)))
                    + (names.size() > 8 ? ", …" : "")));
    if (!documents.isEmpty()) {
      lines.add("- Documentation read: " + String.join(", ", documents));
    }
    references.forEach(reference -> lines.add("- Looked up: " + reference));
    return lines;
  }

  /**
   * What the session taught: commands that failed before they passed, and tool calls the user
   * refused together with what they asked for instead (the next thing they typed).
   */
  private static List<String> learnings(List<Call> calls, List<TranscriptEntry> requests) {
    Map<String, int[]> commands = new LinkedHashMap<>();
    for (Call call : calls) {
      if (!call.name().equals("Bash") || call.rejected()) {
        continue;
      }
      int[] state = commands.computeIfAbsent(call.summary(), key -> new int[] {0, 0});
      if (call.failed()) {
        state[0]++;
      } else if (state[0] > 0) {
        state[1] = 1;
      }
    }
    List<String> lines = new ArrayList<>();
    for (Call call : calls) {
      if (call.rejected()) {
        String refused = "- The user refused " + call.name() + " `" + call.summary() + "`";
        lines.add(
            call.step() < requests.size()
                ? refused
                    + "; next they said: \""
                    + oneLine(requests.get(call.step()).text(), 300)
                    + "\""
                : refused);
      }
    }
    commands.forEach(
        (command, state) -> {
          if (state[0] > 0 && state[1] == 1) {
            lines.add(
                "- `"
                    + command
                    + "` failed "
                    + state[0]
                    + (state[0] == 1 ? " time" : " times")
                    + " before it passed; see Errors & Corrections for what changed");
          }
        });
    return lines;
  }

  /**
   * What each request came to: the last reply of its turn that says something (a closing
   * acknowledgement does not count). A turn cut short (an interruption, a refused call) has none;
   * its result comes with the request that followed. The latest come last and are kept first.
   */
  private static List<String> keyResults(
      List<TranscriptEntry> requests, Map<Integer, String> lastTextInStep) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      String result = lastTextInStep.getOrDefault(i + 1, "");
      if (result.isBlank()) {
        continue;
      }
      lines.add("- \"" + oneLine(requests.get(i).text(), 160) + "\" → " + oneLine(result, 700));
    }
    return lines;
  }

  private static List<String> worklog(List<TranscriptEntry> requests, List<Call> calls) {
    List<String> lines = new ArrayList<>();
    Map<Integer, List<Call>> byStep = new HashMap<>();
    for (Call call : calls) {
      byStep.computeIfAbsent(call.step(), key -> new ArrayList<>()).add(call);
    }
    for (int step = 0; step <= requests.size(); step++) {
      List<Call> inStep = byStep.getOrDefault(step, List.of());
      if (step == 0 && inStep.isEmpty()) {
        continue;
      }
      String request =
          step == 0 ? "Continued earlier work" : oneLine(requests.get(step - 1).text(), 120);
      List<String> actions = actions(inStep);
      lines.add(
          lines.size()
              + 1
              + ". "
              + request
              + (actions.isEmpty() ? "" : " — " + String.join("; ", actions)));
    }
    return lines;
  }

  private static List<String> actions(List<Call> calls) {
    List<String> read = new ArrayList<>();
    List<String> changed = new ArrayList<>();
    List<String> ran = new ArrayList<>();
    List<String> other = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    for (Call call : calls) {
      if (call.rejected()) {
        addOnce(
            refused,
            call.name()
                + (call.summary().isEmpty() ? "" : " `" + abbreviate(call.summary(), 60) + "`"));
      } else if (call.name().equals("Read") && call.file().isPresent()) {
        addOnce(read, call.file().get());
      } else if (isEdit(call.name()) && call.file().isPresent()) {
        addOnce(changed, call.file().get() + (call.failed() ? " ✗" : ""));
      } else if (call.name().equals("Bash")) {
        ran.add("`" + abbreviate(call.summary(), 60) + "`" + (call.failed() ? " ✗" : " ✓"));
      } else {
        addOnce(other, call.name());
      }
    }
    List<String> actions = new ArrayList<>();
    if (!read.isEmpty()) {
      actions.add("read " + list(read));
    }
    if (!changed.isEmpty()) {
      actions.add("changed " + list(changed));
    }
    if (!ran.isEmpty()) {
      actions.add("ran " + list(ran));
    }
    if (!other.isEmpty()) {
      actions.add("used " + list(other));
    }
    if (!refused.isEmpty()) {
      actions.add("the user refused " + list(refused));
    }
    return actions;
  }

  private static String list(List<String> items) {
    return items.size() <= 4
        ? String.join(", ", items)
        : String.join(", ", items.subList(0, 4)) + " and " + (items.size() - 4) + " more";
  }

  private static void addOnce(List<String> items, String item) {
    if (!items.contains(item)) {
      items.add(item);
    }
  }

  private static boolean isEdit(String tool) {
    return tool.equals("Edit")
        || tool.equals("MultiEdit")
        || tool.equals("Write")
        || tool.equals("NotebookEdit");
  }

  private static Optional<String> file(ContentBlock.ToolUse use) {
    return switch (use.name()) {
      case "Read", "Edit", "MultiEdit", "Write" -> use.stringInput("file_path");
      case "NotebookEdit" -> use.stringInput("notebook_path");
      default -> Optional.empty();
    };
  }

  private static String summary(ContentBlock.ToolUse use, String cwd) {
    String summary =
        switch (use.name()) {
          case "Bash" -> use.stringInput("command").orElse("");
          case "Read", "Edit", "MultiEdit", "Write" ->
              use.stringInput("file_path").map(path -> relative(path, cwd)).orElse("");
          case "NotebookEdit" ->
              use.stringInput("notebook_path").map(path -> relative(path, cwd)).orElse("");
          case "Grep", "Glob" ->
              use.stringInput("pattern").map(pattern -> "`" + pattern + "`").orElse("")
                  + use.stringInput("path").map(path -> " in " + relative(path, cwd)).orElse("");
          case "WebFetch" -> use.stringInput("url").orElse("");
          case "WebSearch" -> use.stringInput("query").orElse("");
          case "Task", "Agent" -> use.stringInput("description").orElse("");
          default -> "";
        };
    return abbreviate(WHITESPACE.matcher(summary).replaceAll(" ").strip(), 200);
  }

  private static String errorLine(String result) {
    String cleaned = result.replace("<tool_use_error>", "").replace("</tool_use_error>", "");
    String first = "";
    for (String line : cleaned.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      if (first.isEmpty()) {
        first = line;
      }
      if (ERROR_LINE.matcher(line).find()) {
        return oneLine(line, 200);
      }
    }
    return first.isEmpty() ? "(no output)" : oneLine(first, 200);
  }

  static String relative(String path, String cwd) {
    if (!cwd.isEmpty() && path.startsWith(cwd + "/")) {
      return path.substring(cwd.length() + 1);
    }
    return path;
  }

  private static String oneLine(String text, int max) {
    return abbreviate(WHITESPACE.matcher(text).replaceAll(" ").strip(), max);
  }

  private static String abbreviate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }

  private static String times(int count) {
    return count > 1 ? " ×" + count : "";
  }

  private static String capitalize(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}
