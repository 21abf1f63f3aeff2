package dev.teammemory.daemon.dream;

import dev.teammemory.daemon.extract.MemoryInstructions;
import dev.teammemory.daemon.extract.MemoryWriteGate;
import dev.teammemory.daemon.memory.MemoryIndex;
import dev.teammemory.daemon.model.AgentOutcome;
import dev.teammemory.daemon.model.AgentTool;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.ModelAgent;
import dev.teammemory.daemon.model.ModelMessage;
import java.nio.file.Path;
import java.util.List;

/**
 * The dream with a model: the reference's four phases (orient, gather, consolidate, prune and
 * index) in our own words, run by an agent that may read, search and list anything, run read-only
 * shell commands and write only memory files.
 */
final class ModelConsolidation {

  static final int MAX_TURNS = 12;
  static final int MAX_TOKENS = 8_192;
  static final String SYSTEM_PROMPT =
      "You consolidate the file-based memory of an AI coding agent. You work only through the tools"
          + " you are given, and write only inside the memory directory.";

  private ModelConsolidation() {}

  static String prompt(
      Path memoryDirectory, List<Path> transcriptDirectories, List<String> sessions) {
    return "# Consolidating memory\n\n"
        + "Go over the memory files and fold what recent sessions taught into them, so that the"
        + " memory stays true, compact and easy to find one's way in.\n\n"
        + "Memory directory: `"
        + memoryDirectory
        + "`\nSession transcripts: "
        + transcriptDirectories.stream().map(path -> "`" + path + "`").toList()
        + " ("
        + sessions.size()
        + " sessions since the last consolidation)\n\n"
        + "## Phase 1 — Orient\n"
        + "- List the memory directory and read `MEMORY.md`.\n"
        + "- Skim the topic files, so that you improve them instead of adding near copies.\n"
        + "- Note whether `logs/` (daily logs) exists.\n\n"
        + "## Phase 2 — Gather\n"
        + "What is new and worth keeping, most reliable first:\n"
        + "1. the daily logs (`logs/YYYY/MM/YYYY-MM-DD.md`), when there are any;\n"
        + "2. memories that have drifted: facts that contradict each other or the project now;\n"
        + "3. the transcripts, searched for narrow terms only, for example\n"
        + "   `grep -rn \"<narrow term>\" <transcript folder>/ --include=\"*.jsonl\" | tail -50`;\n"
        + "   never read a whole transcript, they are large.\n\n"
        + "## Phase 3 — Consolidate\n"
        + "- Merge what is new into the topic file it belongs to; start a file only for a new"
        + " subject.\n"
        + "- Write dates as dates (\"yesterday\" becomes the day it meant).\n"
        + "- When something new overturns a memory, correct or delete that memory.\n\n"
        + "## Phase 4 — Prune and index\n"
        + "Leave `MEMORY.md` under "
        + MemoryIndex.MAX_LINES
        + " lines and about 25 KB:\n"
        + "- drop pointers to memories that are gone or stale, add pointers to new ones;\n"
        + "- keep each entry one line under about 150 characters, the detail in the topic file;\n"
        + "- settle contradictions between files.\n\n"
        + "**Tools in this run:** Read, Grep and Glob anywhere; Bash only for commands that read"
        + " (`ls`, `find`, `grep`, `cat`, `stat`, `wc`, `head`, `tail` and the like): anything"
        + " that writes or redirects is refused. Edit and Write work only inside the memory"
        + " directory. `team/` is shared with the whole team: never delete from it.\n\n"
        + MemoryInstructions.autoMemory(memoryDirectory, false);
  }

  static AgentOutcome run(
      AnthropicLanguageModel model,
      Path memoryDirectory,
      List<Path> transcriptDirectories,
      List<String> sessions,
      MemoryWriteGate gate,
      List<AgentTool> tools) {
    ModelAgent agent = new ModelAgent(model, tools, gate);
    return agent.run(
        model.settings().model(),
        MAX_TOKENS,
        SYSTEM_PROMPT,
        List.of(ModelMessage.user(prompt(memoryDirectory, transcriptDirectories, sessions))),
        MAX_TURNS);
  }
}
