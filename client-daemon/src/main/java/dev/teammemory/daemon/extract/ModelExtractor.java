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
 * existing memories, may read anything and run read-only shell commands, and may write only memory
 * files; the {@link MemoryWriteGate} enforces all of it on every call.
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
            ? MemoryInstructions.dailyLog(location.directory(), dailyLog.get())
            : MemoryInstructions.autoMemory(location.directory(), location.teamActive());
    String prompt =
        ConversationRendering.render(range, false)
            + "\n\nYou are now acting as the memory extraction subagent. Analyze the most recent ~"
            + range.size()
            + " messages above and use them to update the persistent memory.\n\n"
            + "Available tools: Read, Bash (read-only: ls, find, grep, cat, stat, wc, head, tail and"
            + " similar; rm is not permitted), and Edit/Write for paths inside the memory directory"
            + " only. You have a limited turn budget: in turn 1 issue all Read calls in parallel for"
            + " every file you might update; in turn 2 issue all Write/Edit calls in parallel.\n\n"
            + "Use only the content of those messages. Do not investigate or verify it further: no"
            + " grepping source files, no reading code, no git commands. If nothing is worth saving,"
            + " stop without writing.\n\n"
            + "## Existing memory files\n"
            + (manifest.isEmpty() ? "(none yet)" : manifest)
            + "\n\nCheck this list before writing: update an existing file rather than creating a"
            + " duplicate.\n\n"
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
