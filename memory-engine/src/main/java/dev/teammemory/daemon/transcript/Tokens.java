package dev.teammemory.daemon.transcript;

import java.util.List;
import java.util.Optional;

/**
 * Token estimates as the reference client makes them: the context size the last API response
 * reported, plus about one token per four characters for everything written after it. The same
 * measure drives the session-notes and compaction thresholds, so both agree on when a conversation
 * has grown.
 */
public final class Tokens {

  /** What the reference charges for an image or a document, whatever its size. */
  static final int MEDIA_TOKENS = 2_000;

  private Tokens() {}

  /** About one token per four characters, rounded as the reference rounds. */
  public static long rough(String text) {
    return Math.round(text.length() / 4.0);
  }

  /** The rough size of one message, summed block by block as the reference does. */
  public static long rough(TranscriptEntry message) {
    return rough(message.content());
  }

  static long rough(List<ContentBlock> blocks) {
    long total = 0;
    for (ContentBlock block : blocks) {
      total +=
          switch (block) {
            case ContentBlock.Text text -> rough(text.text());
            case ContentBlock.Thinking thinking -> rough(thinking.thinking());
            case ContentBlock.ToolUse toolUse -> rough(toolUse.name() + toolUse.input().toString());
            case ContentBlock.ToolResult result -> rough(result.content());
            case ContentBlock.Image image -> MEDIA_TOKENS;
            case ContentBlock.Document document -> MEDIA_TOKENS;
            case ContentBlock.Other other -> Math.round(other.jsonLength() / 4.0);
          };
    }
    return total;
  }

  /**
   * A message's size as the reference pads it when it decides which messages a compaction keeps:
   * each block's rough size (text, thinking, tool result text: their characters; a tool call: its
   * name and compact JSON input; an image or document: {@value #MEDIA_TOKENS}), summed, then padded
   * by 4/3 and rounded up. A message whose content is a plain string counts nothing there, and
   * neither do the reference's; only block lists are measured.
   */
  public static long padded(TranscriptEntry message) {
    if (message.plainContent() || !message.isMessage()) {
      return 0;
    }
    long total = 0;
    for (ContentBlock block : message.content()) {
      total +=
          switch (block) {
            case ContentBlock.ToolResult result -> {
              long size = 0;
              for (ContentBlock part : result.content()) {
                size +=
                    switch (part) {
                      case ContentBlock.Text text -> rough(text.text());
                      case ContentBlock.Image image -> MEDIA_TOKENS;
                      case ContentBlock.Document document -> MEDIA_TOKENS;
                      default -> 0;
                    };
              }
              yield size;
            }
            default -> rough(List.of(block));
          };
    }
    return (total * 4 + 2) / 3;
  }

  /** The rough size of several messages. */
  public static long rough(Iterable<TranscriptEntry> messages) {
    long total = 0;
    for (TranscriptEntry message : messages) {
      total += rough(message);
    }
    return total;
  }

  /**
   * The size of the context the given messages make: the usage of the latest real API response,
   * plus rough estimates for the messages after it. Parallel tool calls are written as several
   * assistant entries sharing one response id with tool results in between; the estimate starts
   * after the first of them so that none of those results is missed.
   */
  public static long estimate(List<TranscriptEntry> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      Optional<Usage> usage = messages.get(i).contextUsage();
      if (usage.isEmpty()) {
        continue;
      }
      int anchor = i;
      Optional<String> responseId = messages.get(i).messageId();
      if (responseId.isPresent()) {
        for (int j = i - 1; j >= 0; j--) {
          TranscriptEntry prior = messages.get(j);
          Optional<String> priorId =
              prior.isAssistant() && !prior.syntheticUsage() ? prior.messageId() : Optional.empty();
          if (priorId.equals(responseId)) {
            anchor = j;
          } else if (priorId.isPresent()) {
            break;
          }
        }
      }
      return usage.get().contextTokens() + rough(messages.subList(anchor + 1, messages.size()));
    }
    return rough(messages);
  }
}
