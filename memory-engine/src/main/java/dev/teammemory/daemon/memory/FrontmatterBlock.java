package dev.teammemory.daemon.memory;

import java.util.OptionalInt;

/**
 * Where a topic file's frontmatter block is: the one rule for finding it, shared by the reader
 * ({@link Frontmatter}) and by consolidation, which keeps the block verbatim and rewrites the body.
 * The block opens on the first line (after an optional byte order mark) with {@code ---} and
 * nothing after it but spaces, and closes on the next such line; {@code ----------} is a body's
 * rule, not a fence.
 */
public final class FrontmatterBlock {

  private FrontmatterBlock() {}

  /**
   * The index in {@code markdown} just past the closing fence line and its line break (the whole
   * text when the fence is the last line), where the body starts; empty when there is no block.
   */
  public static OptionalInt end(String markdown) {
    int position = markdown.startsWith("\uFEFF") ? 1 : 0;
    boolean opened = false;
    while (true) {
      int newline = markdown.indexOf('\n', position);
      int lineEnd = newline < 0 ? markdown.length() : newline;
      boolean fence = isFence(markdown.substring(position, lineEnd));
      if (!opened) {
        if (!fence || newline < 0) {
          return OptionalInt.empty();
        }
        opened = true;
      } else if (fence) {
        return OptionalInt.of(newline < 0 ? markdown.length() : newline + 1);
      } else if (newline < 0) {
        return OptionalInt.empty();
      }
      position = newline + 1;
    }
  }

  /** A fence line: {@code ---} at the margin and only whitespace (a {@code \r} too) after it. */
  static boolean isFence(String line) {
    return line.startsWith("---") && line.strip().equals("---");
  }
}
