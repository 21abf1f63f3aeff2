package dev.teammemory.daemon.transcript;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One line of an agent transcript. Only the fields the memory engine reads are kept; the rest of
 * the line is ignored so that new fields in the agent's format never break reading.
 *
 * @param lineNumber the 1-based line in the file, for messages a person can follow
 * @param type {@code user}, {@code assistant}, {@code system}, {@code summary} or anything else
 * @param subtype the {@code subtype} of a system entry ({@code compact_boundary}), or empty
 * @param role {@code message.role}, or empty for entries without a message
 * @param messageId {@code message.id} of an assistant response; parallel tool calls are written as
 *     several entries that share it
 * @param syntheticUsage whether the response was produced locally ({@code model: <synthetic>}), so
 *     its usage says nothing about the context window
 * @param plainContent whether {@code message.content} was a plain string rather than a list of
 *     blocks (a prompt the user typed, a compaction summary); it is then read as one text block
 */
public record TranscriptEntry(
    int lineNumber,
    String type,
    Optional<String> subtype,
    Optional<String> uuid,
    Optional<String> parentUuid,
    Optional<String> logicalParentUuid,
    Optional<String> sessionId,
    Optional<Instant> timestamp,
    Optional<String> cwd,
    Optional<String> role,
    Optional<String> messageId,
    List<ContentBlock> content,
    Optional<Usage> usage,
    boolean syntheticUsage,
    boolean meta,
    boolean sidechain,
    boolean compactSummary,
    boolean plainContent) {

  public TranscriptEntry {
    if (lineNumber < 1) {
      throw new IllegalArgumentException("lineNumber must be 1 or more: " + lineNumber);
    }
    requireNonNull(type, "type is null");
    requireNonNull(subtype, "subtype is null");
    requireNonNull(uuid, "uuid is null");
    requireNonNull(parentUuid, "parentUuid is null");
    requireNonNull(logicalParentUuid, "logicalParentUuid is null");
    requireNonNull(sessionId, "sessionId is null");
    requireNonNull(timestamp, "timestamp is null");
    requireNonNull(cwd, "cwd is null");
    requireNonNull(role, "role is null");
    requireNonNull(messageId, "messageId is null");
    content = List.copyOf(content);
    requireNonNull(usage, "usage is null");
  }

  /** A user or assistant message, the entries that make up the conversation. */
  public boolean isMessage() {
    return isUser() || isAssistant();
  }

  public boolean isUser() {
    return type.equals("user");
  }

  public boolean isAssistant() {
    return type.equals("assistant");
  }

  /** The marker the agent writes where it compacted the conversation. */
  public boolean isCompactBoundary() {
    return type.equals("system") && subtype.filter("compact_boundary"::equals).isPresent();
  }

  /** The usage of a real API response, which the reference counts as the context size. */
  public Optional<Usage> contextUsage() {
    return isAssistant() && !syntheticUsage ? usage : Optional.empty();
  }

  public List<ContentBlock.ToolUse> toolUses() {
    return content.stream()
        .filter(ContentBlock.ToolUse.class::isInstance)
        .map(ContentBlock.ToolUse.class::cast)
        .toList();
  }

  public List<ContentBlock.ToolResult> toolResults() {
    return content.stream()
        .filter(ContentBlock.ToolResult.class::isInstance)
        .map(ContentBlock.ToolResult.class::cast)
        .toList();
  }

  public boolean hasToolUse() {
    return content.stream().anyMatch(ContentBlock.ToolUse.class::isInstance);
  }

  /**
   * Whether the message has a text block at all, as the reference counts "messages with text" when
   * it decides how much to keep: any text block of a list, or a non-empty plain string.
   */
  public boolean hasTextBlock() {
    return plainContent
        ? !text().isEmpty()
        : content.stream().anyMatch(ContentBlock.Text.class::isInstance);
  }

  public boolean hasText() {
    return content.stream()
        .anyMatch(block -> block instanceof ContentBlock.Text text && !text.text().isBlank());
  }

  /** The message's text blocks joined by newlines; tool results and images are left out. */
  public String text() {
    return content.stream()
        .filter(ContentBlock.Text.class::isInstance)
        .map(block -> ((ContentBlock.Text) block).text())
        .collect(Collectors.joining("\n"));
  }

  /** The note the agent records when the user stopped it mid-turn. */
  public boolean isInterruption() {
    return isUser() && text().strip().startsWith("[Request interrupted by user");
  }

  /**
   * A message a person typed, as opposed to tool results, injected context, command output or a
   * compaction summary, which the agent also records as user messages.
   */
  public boolean isHumanTurn() {
    if (!isUser() || meta || compactSummary || !toolResults().isEmpty()) {
      return false;
    }
    String text = text().strip();
    return !text.isEmpty()
        && !isInterruption()
        && !text.startsWith("<command-")
        && !text.startsWith("<local-command-")
        && !text.startsWith("<system-reminder>")
        && !text.startsWith("Caveat: The messages below were generated by the user while running");
  }
}
