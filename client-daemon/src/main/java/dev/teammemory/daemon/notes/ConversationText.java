package dev.teammemory.daemon.notes;

import dev.teammemory.daemon.transcript.ContentBlock;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * A conversation written out as text for a model that updates the notes. The reference forks the
 * agent with its whole context; a separate process cannot, so it shows the model the transcript
 * instead: every message, tool calls with their input, tool results cut short, media as
 * placeholders. When the whole does not fit, the most recent part is kept.
 */
final class ConversationText {

  static final int MAX_CHARACTERS = 400_000;
  private static final int MAX_TOOL_INPUT = 1_000;
  private static final int MAX_TOOL_RESULT = 2_000;

  private ConversationText() {}

  static String render(List<TranscriptEntry> messages) {
    Deque<String> parts = new ArrayDeque<>();
    int length = 0;
    int omitted = 0;
    for (int i = messages.size() - 1; i >= 0; i--) {
      String part = render(messages.get(i));
      if (part.isEmpty()) {
        continue;
      }
      if (length + part.length() > MAX_CHARACTERS) {
        omitted = i + 1;
        break;
      }
      parts.addFirst(part);
      length += part.length();
    }
    StringBuilder text = new StringBuilder("<conversation>\n");
    if (omitted > 0) {
      text.append("[").append(omitted).append(" earlier messages are not shown]\n\n");
    }
    parts.forEach(text::append);
    return text.append("</conversation>").toString();
  }

  private static String render(TranscriptEntry message) {
    StringBuilder text = new StringBuilder();
    String speaker = message.isUser() ? "user" : "assistant";
    for (ContentBlock block : message.content()) {
      switch (block) {
        case ContentBlock.Text plain -> {
          if (!plain.text().isBlank()) {
            text.append("[")
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
                .append(
                    result.content().stream().anyMatch(ContentBlock.Image.class::isInstance)
                        ? " [image]"
                        : "")
                .append("\n\n");
        case ContentBlock.Image image -> text.append("[").append(speaker).append("] [image]\n\n");
        case ContentBlock.Document document ->
            text.append("[").append(speaker).append("] [document]\n\n");
        case ContentBlock.Thinking thinking -> {
          // The model's private reasoning is not part of what happened.
        }
        case ContentBlock.Other other -> {
          // Unknown blocks carry nothing a note-taker can use.
        }
      }
    }
    return text.toString();
  }

  private static String cut(String text, int max) {
    return text.length() <= max
        ? text
        : text.substring(0, max) + " …[" + (text.length() - max) + " more characters]";
  }
}
