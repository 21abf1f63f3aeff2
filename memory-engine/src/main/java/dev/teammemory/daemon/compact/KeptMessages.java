package dev.teammemory.daemon.compact;

import dev.teammemory.daemon.transcript.ContentBlock;
import dev.teammemory.daemon.transcript.Tokens;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which recent messages survive a compaction from session notes, as the reference chooses them:
 * everything after the last summarized message (nothing, for a resumed session whose notes record
 * no such message), widened backwards one message at a time until at least {@value #MIN_TOKENS}
 * tokens and {@value #MIN_TEXT_MESSAGES} messages with text are kept, or until the kept messages
 * reach {@value #MAX_TOKENS} tokens. Sizes are the reference's padded estimates ({@link
 * Tokens#padded}). The window is then widened again so that every kept {@code tool_result} keeps
 * the assistant message whose {@code tool_use} it answers, together with the other fragments of
 * that response: the API rejects an orphan {@code tool_result}.
 *
 * <p>The messages are those after the last compact boundary, so the window never reaches across an
 * earlier compaction.
 */
final class KeptMessages {

  static final long MIN_TOKENS = 10_000;
  static final int MIN_TEXT_MESSAGES = 5;
  static final long MAX_TOKENS = 40_000;

  private KeptMessages() {}

  /**
   * The index of the first message to keep.
   *
   * @param lastSummarizedIndex the index of the last message the notes cover; the last index (as
   *     for a resumed session) starts with nothing kept
   */
  static int start(List<TranscriptEntry> messages, int lastSummarizedIndex) {
    if (lastSummarizedIndex < 0 || lastSummarizedIndex >= messages.size()) {
      throw new IllegalArgumentException(
          "lastSummarizedIndex is out of range: " + lastSummarizedIndex);
    }
    int start = lastSummarizedIndex + 1;
    long tokens = 0;
    int textMessages = 0;
    for (TranscriptEntry message : messages.subList(start, messages.size())) {
      tokens += Tokens.padded(message);
      textMessages += message.hasTextBlock() ? 1 : 0;
    }
    // The message that crosses the cap is kept: the reference adds before it checks.
    for (int i = start - 1; i >= 0 && !satisfied(tokens, textMessages); i--) {
      tokens += Tokens.padded(messages.get(i));
      textMessages += messages.get(i).hasTextBlock() ? 1 : 0;
      start = i;
    }
    return withToolPairs(messages, start);
  }

  private static boolean satisfied(long tokens, int textMessages) {
    return tokens >= MAX_TOKENS || (tokens >= MIN_TOKENS && textMessages >= MIN_TEXT_MESSAGES);
  }

  /**
   * Moves {@code start} back until no kept {@code tool_result} lacks its {@code tool_use} and no
   * kept response is missing a fragment. One backward pass suffices: a call always comes before its
   * result, and every message pulled in adds its own needs before older messages are looked at.
   */
  static int withToolPairs(List<TranscriptEntry> messages, int start) {
    Set<String> unanswered = new HashSet<>();
    Set<String> responses = new HashSet<>();
    // Latest first, so that a result is recorded before the call that answers it is seen.
    for (int i = messages.size() - 1; i >= start; i--) {
      need(messages.get(i), unanswered, responses);
    }
    for (int i = start - 1; i >= 0; i--) {
      TranscriptEntry message = messages.get(i);
      boolean answersKeptResult =
          message.toolUses().stream().anyMatch(use -> unanswered.contains(use.id()));
      boolean fragmentOfKeptResponse =
          message.isAssistant() && message.messageId().filter(responses::contains).isPresent();
      if (answersKeptResult || fragmentOfKeptResponse) {
        for (int j = start - 1; j >= i; j--) {
          need(messages.get(j), unanswered, responses);
        }
        start = i;
      }
    }
    return start;
  }

  private static void need(TranscriptEntry message, Set<String> unanswered, Set<String> responses) {
    message.toolResults().forEach(result -> unanswered.add(result.toolUseId()));
    message.toolUses().forEach(use -> unanswered.remove(use.id()));
    if (message.isAssistant()) {
      message.messageId().ifPresent(responses::add);
    }
  }

  /** A kept {@code tool_result} whose call is not kept, which must never reach the API. */
  static Optional<String> orphanToolResult(List<TranscriptEntry> kept) {
    Set<String> calls = new HashSet<>();
    for (TranscriptEntry message : kept) {
      for (ContentBlock block : message.content()) {
        if (block instanceof ContentBlock.ToolUse use) {
          calls.add(use.id());
        } else if (block instanceof ContentBlock.ToolResult result
            && !calls.contains(result.toolUseId())) {
          return Optional.of(result.toolUseId());
        }
      }
    }
    return Optional.empty();
  }
}
