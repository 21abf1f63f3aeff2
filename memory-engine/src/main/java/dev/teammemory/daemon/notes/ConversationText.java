package dev.teammemory.daemon.notes;

import dev.teammemory.daemon.transcript.MessageText;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * A conversation written out as text for a model that updates the notes. The reference forks the
 * agent with its whole context; a separate process cannot, so it shows the model the transcript
 * instead, message by message ({@link MessageText}). When the whole does not fit, the most recent
 * part is kept.
 */
final class ConversationText {

  static final int MAX_CHARACTERS = 400_000;

  private ConversationText() {}

  static String render(List<TranscriptEntry> messages) {
    Deque<String> parts = new ArrayDeque<>();
    int length = 0;
    int omitted = 0;
    for (int i = messages.size() - 1; i >= 0; i--) {
      String part = MessageText.of(messages.get(i));
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
}
