package dev.teammemory.daemon.transcript;

import java.util.List;

/**
 * One transcript message as text for a model that reads the conversation instead of having it in
 * context (the notes updater, the summarizer, the extractor): what each side said, tool calls with
 * their input, results cut short, images and documents as placeholders. Thinking is left out.
 */
public final class MessageText {

  private static final int MAX_TOOL_INPUT = 1_000;
  private static final int MAX_TOOL_RESULT = 2_000;

  private MessageText() {}

  /**
   * The message's text, each block followed by a blank line; empty when nothing is worth showing.
   */
  public static String of(TranscriptEntry message) {
    StringBuilder text = new StringBuilder();
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
          // Unknown blocks carry nothing a reader can use.
        }
      }
    }
    return text.toString();
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

  /** The text, or its first {@code max} characters and how many more there were. */
  public static String cut(String text, int max) {
    return text.length() <= max
        ? text
        : text.substring(0, max) + " …[" + (text.length() - max) + " more characters]";
  }
}
