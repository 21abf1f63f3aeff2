package dev.teammemory.daemon.extract;

import dev.teammemory.daemon.memory.MemoryScope;
import dev.teammemory.daemon.memory.MemoryType;
import java.nio.file.Path;

/**
 * What an agent is told about auto memory, in one place: where it lives, when to read it, to check
 * a remembered fact before recommending it, what belongs in memory and what belongs elsewhere, and
 * how to save. The session-start hook gives it to an agent that lacks instructions of its own; the
 * extractor and the dream give it to their own model. The text is kept short: it shares the hook's
 * answer with the memory index.
 */
public final class MemoryInstructions {

  static final String WHAT_NOT_TO_SAVE =
      """
      ## What belongs elsewhere
      Memory is for what a later session cannot learn any other way. Leave out:
      - what the repository already says: code, structure, conventions visible in the code, \
      CLAUDE.md; read it there;
      - history: who changed what and when is in `git log` and `git blame`;
      - fix recipes: the fix is in the code, its story in the commit;
      - this conversation's work: a plan for the task at hand belongs in a plan, steps and \
      progress in a task list; neither outlives the session.
      This holds even when the user asks to save such things: ask what about it was surprising, \
      and keep that.
      """;

  private MemoryInstructions() {}

  /** The instructions for topic-file memory at {@code directory}, with the team's when active. */
  public static String autoMemory(Path directory, boolean teamActive) {
    StringBuilder text = new StringBuilder();
    text.append("# Auto memory\n\n")
        .append("You keep a memory across conversations in files under `")
        .append(directory)
        .append(
            "`. Use it to learn who the user is, how they want you to work, and what the work"
                + " depends on that the code does not show. When the user asks you to remember"
                + " something, save it at once; when they ask you to forget something, remove it.\n\n")
        .append(
            """
            ## When to read it
            `MEMORY.md` (below) is the index. Open a memory when it looks relevant to the task or \
            the user mentions earlier work, and always when the user asks you to check or recall. \
            If the user says to ignore memory, act as if it were empty.

            ## Check before you recommend
            A memory is a note from the day it was written. One that names a file, function, flag \
            or command says it existed then: before you recommend it, check that it still does \
            (look for the file, search for the name, run the command's help). Trust what you see \
            now over the memory, and fix or delete the memory that was wrong. For the current state \
            of the code, read the code or `git log`, not a memory of it.

            ## Four kinds
            - user: their role, skills and responsibilities.
            - feedback: how to work, both corrections and approaches the user confirmed. State the \
            rule, then a **Why:** and a **How to apply:** line.
            - project: decisions, deadlines and reasons the code does not show. Write dates as \
            dates ("Thursday" becomes 2026-03-05).
            - reference: where information lives outside the repository (a dashboard, a tracker \
            project, an on-call service).

            """)
        .append(WHAT_NOT_TO_SAVE)
        .append('\n')
        .append(
            """
            ## How to save
            Each memory is a file of its own named by a short kebab-case slug \
            (`bun-not-npm.md`), starting with:

            ---
            name: bun-not-npm
            description: one specific line, the only thing read when deciding relevance
            type: feedback
            metadata:
              type: feedback
            ---

            Then add one line to `MEMORY.md`: `- [name](file.md) — what it is about`, under 150 \
            characters. The index is always loaded and cut after 200 lines: keep it an index, \
            never the memory itself. Update a memory on the same subject rather than adding a \
            second one, and keep its name, description and type true to its content.
            """);
    if (teamActive) {
      text.append('\n').append(teamMemory(directory));
    }
    return text.toString();
  }

  /**
   * What an agent that keeps its own memory at {@code directory} needs to know about the team's:
   * where it is, which kinds go there, and that secrets never do.
   */
  public static String teamMemory(Path directory) {
    StringBuilder text = new StringBuilder();
    text.append("## Team memory\n")
        .append("`")
        .append(directory.resolve("team"))
        .append(
            "` is shared with everyone working on this repository and has its own MEMORY.md;"
                + " the rest stays with this user. Team memories are written like private ones."
                + " Where each kind goes:\n");
    for (MemoryType type : MemoryType.values()) {
      text.append("- ")
          .append(type.wireName())
          .append(": ")
          .append(MemoryScope.guidance(type))
          .append('\n');
    }
    text.append(
        "\nNever put a key, token, password or other credential in team memory; a secret scanner"
            + " refuses any team write that looks like one.\n");
    return text.toString();
  }

  /**
   * The instructions in daily-log mode: append bullets to the day's log; the index is read-only.
   * The log is named by its pattern, not today's path: a long session outlives the day it started
   * on.
   */
  public static String dailyLog(Path directory) {
    return "# Auto memory (daily log)\n\n"
        + "In this session memory is an append-only log, one file a day:"
        + " `logs/YYYY/MM/YYYY-MM-DD.md` under `"
        + directory
        + "`, for the date when you write (local time). Add one bullet (`- HH:MM …`) for each"
        + " correction or preference of the user, fact about the user, piece of project context"
        + " the code does not show, pointer to an outside system, and anything the user asks you"
        + " to remember. Never change earlier bullets.\n\n"
        + "`MEMORY.md` is read-only in this mode; `tmem dream --now` distils the logs into topic"
        + " files and the index.\n\n"
        + WHAT_NOT_TO_SAVE;
  }
}
