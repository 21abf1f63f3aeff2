package dev.teammemory.daemon.agent;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;

/**
 * The room in one hook answer. Claude Code replaces a hook's output over 10,000 characters (UTF-16
 * units) with a file path and a short preview, so whatever does not fit is as good as lost. An
 * answer is filled in order of value: each section either fits whole, fits as its first whole lines
 * followed by a pointer to the file that holds the rest, or is left out. Sizes are counted as the
 * printed JSON counts them: a newline or a quote inside the context costs two characters there.
 */
final class HookBudget {

  /** The most an answer may print, JSON included: under the agent's 10,000, with room to spare. */
  static final int MAX_ANSWER = 9_500;

  private final StringBuilder text = new StringBuilder();
  private int remaining;

  /**
   * @param hookEventName the event whose JSON wrapper the answer is printed in
   */
  HookBudget(String hookEventName, int maxAnswer) {
    // The wrapper and the newline println adds are spent before any context.
    this.remaining = maxAnswer - HookOutput.additionalContext(hookEventName, "").length() - 1;
  }

  HookBudget(String hookEventName) {
    this(hookEventName, MAX_ANSWER);
  }

  String text() {
    return text.toString();
  }

  /** Adds {@code section} when it fits whole; returns whether it did. */
  boolean addWhole(String section) {
    requireNonNull(section, "section is null");
    String separated = separated(section);
    int cost = printedLength(separated);
    if (cost > remaining) {
      return false;
    }
    text.append(separated);
    remaining -= cost;
    return true;
  }

  /** Adds the first of {@code choices} that fits whole; returns whether one did. */
  boolean addFirstThatFits(List<String> choices) {
    for (String choice : choices) {
      if (addWhole(choice)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Adds {@code heading} and {@code body}: whole when they fit, else {@code heading}, the first
   * whole lines of {@code body} that fit and a line saying where the rest is; when not even that
   * fits, the pointer alone, or nothing.
   *
   * @param whole the file that holds all of {@code body}
   * @return how many of the body's lines were added
   */
  int addLines(String heading, String body, Path whole) {
    return addLines(heading, body, whole, List.of());
  }

  /**
   * As {@link #addLines(String, String, Path)}, leaving room for sections that must follow.
   *
   * @param keepRoomFor sections added later that this one may not crowd out
   */
  int addLines(String heading, String body, Path whole, List<String> keepRoomFor) {
    return addLines(heading, body, "", whole, keepRoomFor);
  }

  /**
   * A teammate's note ({@link TeammateNotes}): as {@link #addLines(String, String, Path, List)},
   * with the fence's closing line kept after whatever part of the body fits.
   */
  int addFenced(TeammateNotes.Fenced note, Path whole, List<String> keepRoomFor) {
    return addLines(note.opening(), note.body(), note.closing(), whole, keepRoomFor);
  }

  private int addLines(
      String heading, String body, String closing, Path whole, List<String> keepRoomFor) {
    requireNonNull(heading, "heading is null");
    requireNonNull(body, "body is null");
    requireNonNull(closing, "closing is null");
    requireNonNull(whole, "whole is null");
    int kept = keepRoomFor.stream().mapToInt(section -> printedLength(section) + 2).sum();
    remaining -= kept;
    try {
      return addLinesWithin(heading, body, closing, whole);
    } finally {
      remaining += kept;
    }
  }

  private int addLinesWithin(String heading, String body, String closing, Path whole) {
    if (addWhole(heading + body + closing)) {
      return (int) body.lines().count();
    }
    List<String> lines = body.lines().toList();
    // The pointer is priced with the largest count it could name, so it always fits when promised;
    // a fence's closing line always follows what is shown of its body.
    String closed = closing.isEmpty() ? "" : closing + "\n";
    int reserved =
        printedLength(closed) + printedLength(pointer(lines.size(), lines.size(), whole));
    StringBuilder kept = new StringBuilder(heading);
    int cost = printedLength(separated(heading));
    int shown = 0;
    for (String line : lines) {
      int lineCost = printedLength(line + "\n");
      if (cost + lineCost + reserved > remaining) {
        break;
      }
      kept.append(line).append('\n');
      cost += lineCost;
      shown++;
    }
    if (shown == 0) {
      addWhole(pointer(0, lines.size(), whole));
      return 0;
    }
    addWhole(kept + closed + pointer(shown, lines.size(), whole));
    return shown;
  }

  static String pointer(int shown, int total, Path whole) {
    if (shown == 0) {
      return "> Left out for lack of room in this hook's answer: " + whole;
    }
    return "> Only the first "
        + shown
        + " of "
        + total
        + " lines fit in this hook's answer; read the rest in "
        + whole;
  }

  private String separated(String section) {
    return text.isEmpty() ? section : "\n\n" + section;
  }

  /** The UTF-16 length of {@code value} once written inside a JSON string. */
  static int printedLength(String value) {
    int length = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') {
        length += 2;
      } else if (c < 0x20) {
        length += 6;
      } else {
        length++;
      }
    }
    return length;
  }
}
