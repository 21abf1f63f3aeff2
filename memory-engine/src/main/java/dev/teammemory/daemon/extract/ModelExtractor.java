package dev.teammemory.daemon.extract;

import dev.teammemory.daemon.compact.ConversationRendering;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.memory.MemoryScan;
import dev.teammemory.daemon.model.AgentOutcome;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.ModelAgent;
import dev.teammemory.daemon.model.ModelMessage;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Extraction by a model, as the reference's extraction agent: it sees the new messages and the
 * existing memories, may read, search and list anything (Read, Grep, Glob) and run read-only shell
 * commands, and may write only memory files; the {@link MemoryWriteGate} enforces all of it on
 * every call.
 */
final class ModelExtractor {

  static final String SYSTEM_PROMPT =
      "You are the memory extraction subagent of an AI coding agent. You decide what from the latest"
          + " messages of a conversation is worth remembering across sessions and save it in the"
          + " memory directory, following the memory instructions you are given.";
  static final int MAX_TURNS = 5;
  static final int MAX_TOKENS = 8_192;

  private ModelExtractor() {}

  static AgentOutcome run(
      AnthropicLanguageModel model,
      List<TranscriptEntry> range,
      MemoryLocation location,
      Optional<Path> dailyLog,
      MemoryWriteGate gate,
      Path workingDirectory)
      throws IOException {
    String manifest = MemoryScan.manifest(MemoryScan.scan(location.directory()));
    String instructions =
        dailyLog.isPresent()
            ? MemoryInstructions.dailyLog(location.directory())
                + "\nToday's log, the only file you may write, is `"
                + dailyLog.get()
                + "`.\n"
            : MemoryInstructions.autoMemory(location.directory(), location.teamActive());
    String prompt =
        ConversationRendering.render(range, false)
            + "\n\nYou are the memory extraction agent now. Read the latest ~"
            + range.size()
            + " messages above and save what in them is worth keeping across sessions.\n\n"
            + "Tools: Read, Grep and Glob anywhere; Bash for commands that only read (ls, find,"
            + " cat, stat, wc, head, tail and the like; never rm); Edit and Write only for files"
            + " inside the memory directory. Anything else is refused. Turns are few, and Edit"
            + " needs a Read of the same file first: read every file you may change in your"
            + " first turn, all at once, then write them all in your second.\n\n"
            + "Work only from those messages. Do not spend turns checking them against the code"
            + " or the git history; if nothing in them is worth keeping, stop without writing.\n\n"
            + "## Memory files so far\n"
            + (manifest.isEmpty() ? "(none yet)" : manifest)
            + "\n\nBefore writing, look for a file on the same subject here and update it"
            + " instead of adding another.\n\n"
            + instructions;
    ModelAgent agent = new ModelAgent(model, MemoryAgentTools.tools(workingDirectory), gate);
    return agent.run(
        model.settings().model(),
        MAX_TOKENS,
        SYSTEM_PROMPT,
        List.of(ModelMessage.user(prompt)),
        MAX_TURNS);
  }
}
