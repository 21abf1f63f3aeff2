package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.stream.Collectors;

/** A Messages API response. */
public record ModelResponse(
    String id, List<ModelContent> content, String stopReason, long inputTokens, long outputTokens) {

  public ModelResponse {
    requireNonNull(id, "id is null");
    content = List.copyOf(content);
    requireNonNull(stopReason, "stopReason is null");
  }

  public List<ModelContent.ToolUse> toolUses() {
    return content.stream()
        .filter(ModelContent.ToolUse.class::isInstance)
        .map(ModelContent.ToolUse.class::cast)
        .toList();
  }

  public String text() {
    return content.stream()
        .filter(ModelContent.Text.class::isInstance)
        .map(block -> ((ModelContent.Text) block).text())
        .collect(Collectors.joining("\n"));
  }
}
