package dev.teammemory.daemon.compact;

import dev.teammemory.daemon.transcript.MessageText;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.util.List;

/**
 * A conversation written out for the summarizer. The reference forks the agent with its context; a
 * separate process cannot, so it shows the model the messages as text ({@link MessageText}): images
 * and documents as placeholders, since they cost tokens and add nothing to a written summary.
 */
public final class ConversationRendering {

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
      text.append(MessageText.of(message));
    }
    return text.append("</conversation>").toString();
  }
}
