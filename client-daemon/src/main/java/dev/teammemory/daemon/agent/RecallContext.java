package dev.teammemory.daemon.agent;

import dev.teammemory.daemon.recall.RecalledMemory;
import dev.teammemory.daemon.transcript.ContentBlock;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** UserPromptSubmit's context: the memories recall chose, within the hook's budget. */
final class RecallContext {

  private static final int RECENT_MESSAGES = 20;

  private RecallContext() {}

  /**
   * The memories in the order recall ranked them, each whole while they fit the hook's budget, then
   * cut at a line with a pointer to its file, then the pointer alone: every memory recall chose is
   * at least named. A team memory's content is fenced and attributed ({@link TeammateNotes}).
   */
  static String context(List<RecalledMemory> memories, TeammateNotes notes) {
    HookBudget budget = new HookBudget(AgentEvent.USER_PROMPT_SUBMIT.label());
    for (int i = 0; i < memories.size(); i++) {
      RecalledMemory memory = memories.get(i);
      // Each memory after this one keeps room at least for its pointer.
      List<String> pointersAfter =
          memories.subList(i + 1, memories.size()).stream()
              .map(later -> HookBudget.pointer(0, 1, later.file()))
              .toList();
      if (notes.isTeamMemory(memory.file())) {
        budget.addFenced(
            notes.fence(memory.file(), memory.content()).under(memory.header() + "\n"),
            memory.file(),
            pointersAfter);
      } else {
        budget.addLines(memory.header() + "\n", memory.content(), memory.file(), pointersAfter);
      }
    }
    return budget.text();
  }

  /** The tools the agent used lately: recall skips their usage notes, keeping their warnings. */
  static List<String> recentTools(Optional<Path> transcriptPath) {
    if (transcriptPath.isEmpty()) {
      return List.of();
    }
    List<TranscriptEntry> messages;
    try {
      messages = Transcript.read(transcriptPath.get()).currentContext();
    } catch (IOException unreadable) {
      return List.of();
    }
    Set<String> tools = new LinkedHashSet<>();
    for (TranscriptEntry message :
        messages.subList(Math.max(0, messages.size() - RECENT_MESSAGES), messages.size())) {
      message.toolUses().stream().map(ContentBlock.ToolUse::name).forEach(tools::add);
    }
    return List.copyOf(tools);
  }
}
