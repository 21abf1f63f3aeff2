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
 * The dream with a model: the reference's four-phase consolidation prompt, run by an agent that may
 * read anything, run read-only shell commands and write only memory files.
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
    return "# Dream: Memory Consolidation\n\n"
        + "You are performing a dream: a reflective pass over your memory files. Synthesize what you've"
        + " learned recently into durable, well-organized memories so that future sessions can orient"
        + " quickly.\n\n"
        + "Memory directory: `"
        + memoryDirectory
        + "`\nSession transcripts: "
        + transcriptDirectories.stream().map(path -> "`" + path + "`").toList()
        + " ("
        + sessions.size()
        + " sessions since the last consolidation)\n\n"
        + "## Phase 1 — Orient\n"
        + "- `ls` the memory directory to see what already exists\n"
        + "- Read `MEMORY.md` to understand the current index\n"
        + "- Skim existing topic files so you improve them rather than creating duplicates\n"
        + "- If `logs/` or `sessions/` subdirectories exist, review recent entries\n\n"
        + "## Phase 2 — Gather\n"
        + "Look for new information worth persisting. Sources in rough priority order:\n"
        + "1. Daily logs (`logs/YYYY/MM/YYYY-MM-DD.md`) if present\n"
        + "2. Existing memories that drifted (facts contradicting each other or the current project)\n"
        + "3. Transcript search: grep the JSONL transcripts for narrow terms, for example\n"
        + "   `grep -rn \"<narrow term>\" <transcript dir>/ --include=\"*.jsonl\" | tail -50`.\n"
        + "   Do not read whole transcripts; they are large.\n\n"
        + "## Phase 3 — Consolidate\n"
        + "For each thing worth remembering, write or update a memory file. Focus on:\n"
        + "- Merging new signal into existing topic files rather than creating new ones\n"
        + "- Converting relative dates to absolute dates (\"yesterday\" → the date)\n"
        + "- Deleting contradicted facts: when new information overturns an old memory, fix it at the source\n\n"
        + "## Phase 4 — Prune and index\n"
        + "Update `MEMORY.md` so it stays under "
        + MemoryIndex.MAX_LINES
        + " lines and under ~25KB:\n"
        + "- Remove pointers to stale or missing memories\n"
        + "- Demote verbose entries (over ~150 characters: shorten, move the detail to the topic file)\n"
        + "- Add pointers to newly important memories\n"
        + "- Resolve contradictions between files\n\n"
        + "**Tool constraints for this run:** Bash is restricted to read-only commands (`ls`, `find`,"
        + " `grep`, `cat`, `stat`, `wc`, `head`, `tail`, and similar). Anything that writes, redirects"
        + " to a file, or modifies state will be denied. Edit and Write work only inside the memory"
        + " directory. Team memory (`team/`) is shared with the whole team: do not delete from it.\n\n"
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
