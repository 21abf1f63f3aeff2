package dev.teammemory.daemon.transcript;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One block of a transcript message's content, as the Messages API defines it. Blocks of a type
 * this reader does not know are kept as {@link Other} so that token estimates still count them.
 */
public sealed interface ContentBlock {

  /** Plain text written by the user or the model. */
  record Text(String text) implements ContentBlock {
    public Text {
      requireNonNull(text, "text is null");
    }
  }

  /** The model's visible reasoning. */
  record Thinking(String thinking) implements ContentBlock {
    public Thinking {
      requireNonNull(thinking, "thinking is null");
    }
  }

  /** A tool call the model made; {@code input} is the tool's JSON arguments. */
  record ToolUse(String id, String name, JsonNode input) implements ContentBlock {
    public ToolUse {
      requireNonNull(id, "id is null");
      requireNonNull(name, "name is null");
      requireNonNull(input, "input is null");
      input = input.deepCopy();
    }

    /** A string argument of the call, or empty when absent or not a string. */
    public Optional<String> stringInput(String field) {
      JsonNode value = input.get(field);
      return value != null && value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
    }
  }

  /** The answer to a tool call; its content is text, images or documents. */
  record ToolResult(String toolUseId, List<ContentBlock> content, boolean isError)
      implements ContentBlock {
    public ToolResult {
      requireNonNull(toolUseId, "toolUseId is null");
      content = List.copyOf(content);
    }

    /** The result's text blocks joined by newlines. */
    public String text() {
      return content.stream()
          .filter(Text.class::isInstance)
          .map(block -> ((Text) block).text())
          .collect(Collectors.joining("\n"));
    }
  }

  /** An image; only its media type is kept because the base64 data is of no use here. */
  record Image(String mediaType) implements ContentBlock {
    public Image {
      requireNonNull(mediaType, "mediaType is null");
    }
  }

  /** A document (a PDF or a text source); only its media type and title are kept. */
  record Document(String mediaType, String title) implements ContentBlock {
    public Document {
      requireNonNull(mediaType, "mediaType is null");
      requireNonNull(title, "title is null");
    }
  }

  /** A block of a type this reader does not know, with the length of its JSON form. */
  record Other(String type, int jsonLength) implements ContentBlock {
    public Other {
      requireNonNull(type, "type is null");
      if (jsonLength < 0) {
        throw new IllegalArgumentException("jsonLength is negative: " + jsonLength);
      }
    }
  }
}
