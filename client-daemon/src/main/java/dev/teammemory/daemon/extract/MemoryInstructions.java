package dev.teammemory.daemon.extract;

import dev.teammemory.daemon.memory.MemoryType;
import java.nio.file.Path;

/**
 * What an agent is told about auto memory: where it lives, the four types, what must never be
 * saved, and how to save (a topic file, then one line in {@code MEMORY.md}). The session-start hook
 * gives it to the main agent; the extractor and the dream give it to their own model.
 */
public final class MemoryInstructions {

  static final String WHAT_NOT_TO_SAVE =
      """
      ## What NOT to save in memory
      - Code patterns, conventions, architecture, file paths, or project structure: these can be \
      derived by reading the current project state.
      - Git history, recent changes, or who-changed-what: `git log` / `git blame` are authoritative.
      - Debugging solutions or fix recipes: the fix is in the code and the commit message has the \
      context.
      - Anything already documented in CLAUDE.md files.
      - Ephemeral task details: in-progress work, temporary state, current conversation context.

      These exclusions apply even when the user explicitly asks you to save. If they ask you to \
      save a list of PRs or an activity summary, ask what was surprising or non-obvious about it: \
      that is the part worth keeping.
      """;

  private MemoryInstructions() {}

  /** The instructions for topic-file memory at {@code directory}, with the team's when active. */
  public static String autoMemory(Path directory, boolean teamActive) {
    StringBuilder text = new StringBuilder();
    text.append("# auto memory\n\n")
        .append("You have a persistent, file-based memory system at `")
        .append(directory)
        .append(
            "`. Write to it directly with the Write tool (create the directory if it does not exist).\n\n")
        .append(
            "Build it up over time so that future conversations have a complete picture of who the"
                + " user is, how they like to work with you, what to avoid or repeat, and the context"
                + " behind the work. If the user explicitly asks you to remember something, save it"
                + " immediately as whichever type fits best. If they ask you to forget something,"
                + " find and remove the entry.\n\n")
        .append("## Types of memory\n")
        .append(
            "- user: the user's role, goals, responsibilities and knowledge, so you can tailor your help.\n")
        .append(
            "- feedback: guidance the user gave about how to work, both corrections and confirmed"
                + " approaches. Lead with the rule, then a **Why:** line and a **How to apply:** line.\n")
        .append(
            "- project: goals, incidents, decisions and deadlines that cannot be read from the code or"
                + " git history. Convert relative dates to absolute dates (\"Thursday\" → 2026-03-05).\n")
        .append(
            "- reference: where information lives in external systems (trackers, dashboards, channels).\n\n")
        .append(WHAT_NOT_TO_SAVE)
        .append('\n')
        .append(
            """
            ## How to save memories
            Saving a memory is a two-step process.

            Step 1: write the memory to its own file (for example `user_role.md`, \
            `feedback_testing.md`) with this frontmatter:

            ---
            name: {{memory name}}
            description: {{one-line description, used to decide relevance later, so be specific}}
            type: {{user, feedback, project, reference}}
            ---

            {{memory content}}

            Step 2: add a pointer to that file in `MEMORY.md`. `MEMORY.md` is an index, not a \
            memory: one line per entry, under ~150 characters, `- [Title](file.md) — one-line hook`, \
            no frontmatter. Never write memory content into `MEMORY.md`.

            - `MEMORY.md` is always loaded into your context and is cut after 200 lines, so keep it short.
            - Keep name, description and type up to date with the content.
            - Organize memory by topic, not chronologically.
            - Update or remove memories that turn out to be wrong or outdated.
            - Do not write duplicates: check for an existing memory to update before writing a new one.
            """);
    if (teamActive) {
      text.append("\n## Private and team memory\n")
          .append("Team memory at `")
          .append(directory.resolve("team"))
          .append(
              "` is shared with everyone working on this repository; everything else stays with this"
                  + " user. Each has its own MEMORY.md. Where each type goes:\n");
      for (MemoryType type : MemoryType.values()) {
        text.append("- ")
            .append(type.wireName())
            .append(": ")
            .append(dev.teammemory.daemon.memory.MemoryScope.guidance(type))
            .append('\n');
      }
      text.append(
          "\nYou MUST avoid saving sensitive data in team memory: never save API keys or user"
              + " credentials. A secret scanner refuses any team write that looks like one.\n");
    }
    return text.toString();
  }

  /** The instructions in daily-log mode: append bullets to today's log, index read-only. */
  public static String dailyLog(Path directory, Path today) {
    return "# auto memory (daily log)\n\n"
        + "Memory for this session is an append-only daily log: today's file is `"
        + today
        + "` (`logs/YYYY/MM/YYYY-MM-DD.md` under `"
        + directory
        + "`). Append one timestamped bullet (`- HH:MM …`) for each of: the user's corrections and"
        + " preferences; facts about the user, their role or goals; project context that cannot be"
        + " read from the code; pointers to external systems; anything the user explicitly asks you"
        + " to remember. Never rewrite earlier bullets.\n\n"
        + "`MEMORY.md` is read-only in this mode: a separate consolidation (`tmem dream --now`)"
        + " distils the logs into topic files and the index.\n\n"
        + WHAT_NOT_TO_SAVE;
  }
}
