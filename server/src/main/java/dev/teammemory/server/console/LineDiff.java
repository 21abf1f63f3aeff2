package dev.teammemory.server.console;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.Patch;
import java.util.ArrayList;
import java.util.List;

/** A line diff of two texts (java-diff-utils' Myers diff), as rows a page lists. */
final class LineDiff {

  /** How a line fared: in both, only in the older text, or only in the newer. */
  enum Kind {
    SAME(" "),
    REMOVED("-"),
    ADDED("+");

    private final String mark;

    Kind(String mark) {
      this.mark = mark;
    }

    String mark() {
      return mark;
    }
  }

  /** One line of the diff, with its numbers in the older and newer text (0: not there). */
  record Row(Kind kind, int oldNumber, int newNumber, String text) {
    public String mark() {
      return kind.mark();
    }

    public String kindName() {
      return kind.name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private LineDiff() {}

  static List<Row> of(String older, String newer) {
    List<String> before = lines(older);
    List<String> after = lines(newer);
    Patch<String> patch = DiffUtils.diff(before, after);
    List<Row> rows = new ArrayList<>();
    int oldLine = 0;
    int newLine = 0;
    for (AbstractDelta<String> delta : patch.getDeltas()) {
      while (oldLine < delta.getSource().getPosition()) {
        rows.add(new Row(Kind.SAME, oldLine + 1, newLine + 1, before.get(oldLine)));
        oldLine++;
        newLine++;
      }
      for (String line : delta.getSource().getLines()) {
        rows.add(new Row(Kind.REMOVED, ++oldLine, 0, line));
      }
      for (String line : delta.getTarget().getLines()) {
        rows.add(new Row(Kind.ADDED, 0, ++newLine, line));
      }
    }
    while (oldLine < before.size()) {
      rows.add(new Row(Kind.SAME, oldLine + 1, newLine + 1, before.get(oldLine)));
      oldLine++;
      newLine++;
    }
    return rows;
  }

  private static List<String> lines(String text) {
    return text.isEmpty() ? List.of() : List.of(text.split("\n", -1));
  }
}
