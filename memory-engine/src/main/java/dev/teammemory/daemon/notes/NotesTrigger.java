package dev.teammemory.daemon.notes;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.util.List;
import java.util.Optional;

/**
 * When session notes are written, as the reference decides: not before the conversation reaches
 * {@value #INITIAL_TOKENS} tokens; after that, when it has grown by {@value #TOKENS_BETWEEN} tokens
 * since the last update AND either {@value #TOOL_CALLS_BETWEEN} tool calls were made or the last
 * assistant turn made none (a natural break). The token growth is always required, so a burst of
 * tool calls alone never triggers an update.
 */
final class NotesTrigger {

  static final long INITIAL_TOKENS = 10_000;
  static final long TOKENS_BETWEEN = 5_000;
  static final int TOOL_CALLS_BETWEEN = 3;

  private NotesTrigger() {}

  /** The decision, and the progress to keep whatever it is (initialisation sticks). */
  sealed interface Decision {
    NotesProgress progress();

    record Update(NotesProgress progress, long tokens, int toolCalls, boolean naturalBreak)
        implements Decision {}

    record NotDue(NotesProgress progress, long tokens, String reason) implements Decision {
      public NotDue {
        requireNonNull(reason, "reason is null");
      }
    }
  }

  /**
   * @param context the messages in the agent's context (after the last compaction)
   * @param tokens the context's size
   */
  static Decision decide(List<TranscriptEntry> context, long tokens, NotesProgress progress) {
    NotesProgress current = progress;
    if (!current.initialized()) {
      if (tokens < INITIAL_TOKENS) {
        return new Decision.NotDue(
            current,
            tokens,
            "the conversation is ~" + tokens + " tokens; notes start at " + INITIAL_TOKENS);
      }
      current =
          new NotesProgress(
              true,
              current.tokensAtLastUpdate(),
              current.lastUpdateMessage(),
              current.lastSummarizedMessage(),
              current.lastUpdate());
    }
    long growth = tokens - current.tokensAtLastUpdate();
    int toolCalls = toolCallsSince(context, current.lastUpdateMessage());
    boolean naturalBreak = !hasToolCallsInLastAssistantTurn(context);
    if (growth < TOKENS_BETWEEN) {
      return new Decision.NotDue(
          current,
          tokens,
          "~"
              + Math.max(0, growth)
              + " tokens since the last update; the next one needs "
              + TOKENS_BETWEEN);
    }
    if (toolCalls < TOOL_CALLS_BETWEEN && !naturalBreak) {
      return new Decision.NotDue(
          current,
          tokens,
          toolCalls
              + " tool calls since the last update and the agent is mid-turn; waiting for "
              + TOOL_CALLS_BETWEEN
              + " or a natural break");
    }
    return new Decision.Update(current, tokens, toolCalls, naturalBreak);
  }

  /**
   * Tool calls in assistant messages after {@code since}. When that message is gone (compacted
   * away) every call in the context counts; the reference would count none and wait for a natural
   * break instead.
   */
  static int toolCallsSince(List<TranscriptEntry> context, Optional<String> since) {
    int start = 0;
    if (since.isPresent()) {
      for (int i = 0; i < context.size(); i++) {
        if (context.get(i).uuid().equals(since)) {
          start = i + 1;
          break;
        }
      }
    }
    int calls = 0;
    for (TranscriptEntry message : context.subList(start, context.size())) {
      if (message.isAssistant()) {
        calls += message.toolUses().size();
      }
    }
    return calls;
  }

  /**
   * Whether the latest assistant response calls a tool. A response with parallel calls is written
   * as several entries sharing one message id; all of them are the last turn.
   */
  static boolean hasToolCallsInLastAssistantTurn(List<TranscriptEntry> context) {
    for (int i = context.size() - 1; i >= 0; i--) {
      TranscriptEntry message = context.get(i);
      if (!message.isAssistant()) {
        continue;
      }
      if (message.hasToolUse()) {
        return true;
      }
      Optional<String> responseId = message.messageId();
      if (responseId.isEmpty()) {
        return false;
      }
      for (int j = i - 1; j >= 0; j--) {
        TranscriptEntry prior = context.get(j);
        if (prior.isAssistant() && !prior.messageId().equals(responseId)) {
          break;
        }
        if (prior.isAssistant() && prior.hasToolUse()) {
          return true;
        }
      }
      return false;
    }
    return false;
  }
}
