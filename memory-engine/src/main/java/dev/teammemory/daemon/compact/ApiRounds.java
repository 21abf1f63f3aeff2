package dev.teammemory.daemon.compact;

import dev.teammemory.daemon.transcript.Tokens;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The conversation cut into API rounds, for the last resort when even the request to summarize is
 * too long: a round starts where a new assistant response starts (fragments of one response share
 * its {@code message.id}), so dropping whole rounds from the front never separates a call from its
 * result.
 */
final class ApiRounds {

  /** Told to the summarizer in place of the rounds that were dropped. */
  static final String RETRY_MARKER = "[earlier conversation truncated for compaction retry]";

  private static final Pattern TOO_LONG =
      Pattern.compile(
          "prompt is too long:\\s*(\\d+)\\s*tokens\\s*>\\s*(\\d+)", Pattern.CASE_INSENSITIVE);

  private ApiRounds() {}

  static List<List<TranscriptEntry>> group(List<TranscriptEntry> messages) {
    List<List<TranscriptEntry>> rounds = new ArrayList<>();
    List<TranscriptEntry> current = new ArrayList<>();
    Optional<String> currentResponse = Optional.empty();
    for (TranscriptEntry message : messages) {
      boolean newResponse =
          message.isAssistant()
              && (message.messageId().isEmpty() || !message.messageId().equals(currentResponse));
      if (newResponse && !current.isEmpty()) {
        rounds.add(current);
        current = new ArrayList<>();
      }
      if (message.isAssistant()) {
        currentResponse = message.messageId();
      }
      current.add(message);
    }
    if (!current.isEmpty()) {
      rounds.add(current);
    }
    return rounds;
  }

  /**
   * The conversation without its oldest rounds: as many as cover the reported token gap, else a
   * fifth of them; at least one, and never the last. Empty when there is only one round left.
   */
  static Optional<List<TranscriptEntry>> dropOldest(
      List<TranscriptEntry> messages, OptionalLong tokenGap) {
    List<List<TranscriptEntry>> rounds = group(messages);
    if (rounds.size() < 2) {
      return Optional.empty();
    }
    int drop;
    if (tokenGap.isPresent()) {
      long covered = 0;
      drop = 0;
      for (List<TranscriptEntry> round : rounds) {
        covered += Tokens.rough(round);
        drop++;
        if (covered >= tokenGap.getAsLong()) {
          break;
        }
      }
    } else {
      drop = Math.max(1, rounds.size() / 5);
    }
    drop = Math.min(drop, rounds.size() - 1);
    return Optional.of(rounds.subList(drop, rounds.size()).stream().flatMap(List::stream).toList());
  }

  /** How many tokens too long the API said the prompt was ({@code 210000 tokens > 200000}). */
  static OptionalLong tokenGap(String errorMessage) {
    Matcher matcher = TOO_LONG.matcher(errorMessage);
    if (!matcher.find()) {
      return OptionalLong.empty();
    }
    try {
      long gap = Long.parseLong(matcher.group(1)) - Long.parseLong(matcher.group(2));
      return gap > 0 ? OptionalLong.of(gap) : OptionalLong.empty();
    } catch (NumberFormatException tooLarge) {
      return OptionalLong.empty();
    }
  }
}
