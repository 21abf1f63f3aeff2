package dev.teammemory.daemon.notes;

import dev.teammemory.daemon.model.AgentOutcome;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.FileEditTool;
import dev.teammemory.daemon.model.ModelAgent;
import dev.teammemory.daemon.model.ModelMessage;
import dev.teammemory.daemon.model.PermissionGate;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.nio.file.Path;
import java.util.List;

/**
 * Has a model update the notes, as the reference's forked agent does: it sees the conversation and
 * the update prompt and may call one tool, {@code Edit}, on one file, the notes. The permission
 * gate enforces that in code; the prompt only explains it.
 */
final class ModelNotes {

  static final String SYSTEM_PROMPT =
      "You keep the session notes of a conversation between a user and an AI coding agent. The"
          + " conversation is given between <conversation> tags. You change the notes only with the"
          + " Edit tool, and only the notes file.";
  static final int MAX_TURNS = 4;
  static final int MAX_TOKENS = 8_192;

  private ModelNotes() {}

  static AgentOutcome update(
      AnthropicLanguageModel model,
      List<TranscriptEntry> context,
      String currentNotes,
      Path notes,
      NotesTemplate template) {
    String prompt =
        ConversationText.render(context) + "\n\n" + template.updatePrompt(currentNotes, notes);
    ModelAgent agent =
        new ModelAgent(model, List.of(new FileEditTool()), PermissionGate.onlyEditing(notes));
    return agent.run(
        model.settings().model(),
        MAX_TOKENS,
        SYSTEM_PROMPT,
        List.of(ModelMessage.user(prompt)),
        MAX_TURNS);
  }
}
