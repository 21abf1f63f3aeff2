package dev.teammemory.daemon.compact;

import dev.teammemory.daemon.transcript.ContentBlock;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.util.List;

/**
 * A conversation written out for the summarizer. The reference forks the agent with its context; a
 * separate process cannot, so it shows the model the messages as text: what each side said, tool
 * calls with their input, results cut short, images and documents as placeholders (they cost tokens
 * and add nothing to a written summary). Thinking is left out.
 */
public final class ConversationRendering {

  private static final int MAX_TOOL_INPUT = 1_000;
  private static final int MAX_TOOL_RESULT = 2_000;

  private ConversationRendering() {}

  /**
   * @param headTruncated whether older rounds were dropped to make the request fit
   */
  public static String render(List<TranscriptEntry> messages, boolean headTruncated) {
    StringBuilder text = new StringBuilder("<conversation>\n");
    if (headTruncated) {
      text.append("[user] ").append(ApiRounds.RETRY_MARKER).append("\n\n");
    }
    for (TranscriptEntry message : messages) {
      render(message, text);
    }
    return text.append("</conversation>").toString();
  }

  private static void render(TranscriptEntry message, StringBuilder text) {
    String speaker = message.isUser() ? "user" : "assistant";
    for (ContentBlock block : message.content()) {
      switch (block) {
        case ContentBlock.Text plain -> {
          if (!plain.text().isBlank()) {
            text.append('[')
                .append(speaker)
                .append("] ")
                .append(plain.text().strip())
                .append("\n\n");
          }
        }
        case ContentBlock.ToolUse use ->
            text.append("[assistant calls ")
                .append(use.name())
                .append("] ")
                .append(cut(use.input().toString(), MAX_TOOL_INPUT))
                .append("\n\n");
        case ContentBlock.ToolResult result ->
            text.append(result.isError() ? "[tool error] " : "[tool result] ")
                .append(cut(result.text().strip(), MAX_TOOL_RESULT))
                .append(media(result.content()))
                .append("\n\n");
        case ContentBlock.Image image -> text.append('[').append(speaker).append("] [image]\n\n");
        case ContentBlock.Document document ->
            text.append('[').append(speaker).append("] [document]\n\n");
        case ContentBlock.Thinking thinking -> {
          // Private reasoning is not part of what happened.
        }
        case ContentBlock.Other other -> {
          // Unknown blocks carry nothing a summary can use.
        }
      }
    }
  }

  private static String media(List<ContentBlock> content) {
    StringBuilder placeholders = new StringBuilder();
    for (ContentBlock block : content) {
      if (block instanceof ContentBlock.Image) {
        placeholders.append(" [image]");
      } else if (block instanceof ContentBlock.Document) {
        placeholders.append(" [document]");
      }
    }
    return placeholders.toString();
  }

  static String cut(String text, int max) {
    return text.length() <= max
        ? text
        : text.substring(0, max) + " …[" + (text.length() - max) + " more characters]";
  }
}
