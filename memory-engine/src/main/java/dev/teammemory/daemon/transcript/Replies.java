package dev.teammemory.daemon.transcript;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What the agent's replies say, for the offline notes and summary: a short acknowledgement
 * ("Understood.", "You're welcome!") closes a turn but carries no result; the result is the last
 * reply that says something.
 */
public final class Replies {

  private static final String PHRASE =
      "(?:understood|ok(?:ay)?|got it|sure|noted|will do|done|great|good|perfect|thanks|thank you"
          + "|you'?re welcome|anytime|no problem|glad (?:to|I could) help|happy to help"
          + "|sounds good|of course|(?:I'?ll|I will) (?:do that|keep that in mind|remember that)"
          + "|好的|明白了?|收到|不客气|没问题)";

  /** Nothing but acknowledging phrases and punctuation. */
  private static final Pattern ACKNOWLEDGEMENT =
      Pattern.compile(
          "^" + PHRASE + "(?:[\\s,.!;—–-]+" + PHRASE + ")*[\\s.!。！]*$",
          Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  private Replies() {}

  /** A reply that only acknowledges ("Understood.", "Got it, thanks!"), saying nothing else. */
  public static boolean isAcknowledgement(String text) {
    return ACKNOWLEDGEMENT.matcher(text.strip()).matches();
  }

  /** The last reply among {@code messages} that says something, not only acknowledges. */
  public static Optional<String> result(List<TranscriptEntry> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      TranscriptEntry message = messages.get(i);
      if (message.isAssistant() && message.hasText() && !isAcknowledgement(message.text())) {
        return Optional.of(message.text().strip());
      }
    }
    return Optional.empty();
  }
}
