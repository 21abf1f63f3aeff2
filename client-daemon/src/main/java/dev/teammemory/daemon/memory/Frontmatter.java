package dev.teammemory.daemon.memory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The YAML frontmatter of a topic file: the block between a leading {@code ---} line and the next
 * one. Only the small subset memory files use is understood (keys with plain, quoted or block
 * scalar values, and lists). Parsing is tolerant in the reference's way: when the block is not
 * valid YAML, a second pass quotes values that contain characters YAML treats specially (a {@code :
 * } in a description is the usual culprit) and skips lines it cannot read; when even that fails,
 * the file simply has no frontmatter. It never throws.
 *
 * @param values each key's value: a {@link String} or a {@code List<String>}
 */
record Frontmatter(Map<String, Object> values) {

  private static final Pattern KEY_LINE =
      Pattern.compile("^([A-Za-z0-9_][^:#]*?)\\s*:(?:\\s+(.*?))?\\s*$");
  private static final Pattern SIMPLE_KEY_LINE = Pattern.compile("^([a-zA-Z_-]+):\\s+(.+)$");
  private static final Pattern YAML_SPECIAL = Pattern.compile("[{}\\[\\]*&#!|>%@`]|: ");
  private static final Pattern BLOCK_SCALAR = Pattern.compile("^[|>][+-]?$");

  static final Frontmatter NONE = new Frontmatter(Map.of());

  Frontmatter {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** A key's value when it is a non-blank string. */
  Optional<String> string(String key) {
    return values.get(key) instanceof String text && !text.isBlank()
        ? Optional.of(text.strip())
        : Optional.empty();
  }

  /** Reads the frontmatter at the start of {@code markdown}; {@link #NONE} when there is none. */
  static Frontmatter parse(String markdown) {
    String text = markdown.startsWith("\uFEFF") ? markdown.substring(1) : markdown;
    String[] lines = text.split("\r?\n", -1);
    if (lines.length < 2 || !lines[0].strip().equals("---") || !lines[0].startsWith("---")) {
      return NONE;
    }
    int end = -1;
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].startsWith("---") && lines[i].strip().equals("---")) {
        end = i;
        break;
      }
    }
    if (end < 0) {
      return NONE;
    }
    List<String> block = List.of(lines).subList(1, end);
    return strict(block, false)
        .or(() -> strict(quoteProblematicValues(block), true))
        .map(Frontmatter::new)
        .orElse(NONE);
  }

  /** The reference's retry: double-quote simple values that contain YAML's special characters. */
  static List<String> quoteProblematicValues(List<String> block) {
    List<String> quoted = new ArrayList<>(block.size());
    for (String line : block) {
      Matcher match = SIMPLE_KEY_LINE.matcher(line);
      if (match.matches()) {
        String key = match.group(1);
        String value = match.group(2);
        boolean alreadyQuoted =
            value.length() >= 2
                && ((value.startsWith("\"") && value.endsWith("\""))
                    || (value.startsWith("'") && value.endsWith("'")));
        if (!alreadyQuoted && YAML_SPECIAL.matcher(value).find()) {
          quoted.add(key + ": \"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
          continue;
        }
      }
      quoted.add(line);
    }
    return quoted;
  }

  /**
   * Parses the subset; empty when the block is not valid in it. With {@code skipStrayLines}, lines
   * that are neither a key nor part of one are ignored instead of failing the block.
   */
  private static Optional<Map<String, Object>> strict(List<String> block, boolean skipStrayLines) {
    Map<String, Object> values = new LinkedHashMap<>();
    int i = 0;
    while (i < block.size()) {
      String line = block.get(i);
      if (line.isBlank() || line.stripLeading().startsWith("#")) {
        i++;
        continue;
      }
      Matcher match = KEY_LINE.matcher(line);
      if (Character.isWhitespace(line.charAt(0)) || !match.matches()) {
        if (skipStrayLines) {
          i++;
          continue;
        }
        return Optional.empty();
      }
      String key = match.group(1);
      String inline = match.group(2) == null ? "" : match.group(2);
      // Lines that belong to this key: indented ones, and unindented list items.
      int next = i + 1;
      List<String> nested = new ArrayList<>();
      while (next < block.size()) {
        String candidate = block.get(next);
        boolean belongs =
            candidate.isBlank()
                || Character.isWhitespace(candidate.charAt(0))
                || (inline.isEmpty() && candidate.startsWith("- "));
        if (!belongs) {
          break;
        }
        nested.add(candidate);
        next++;
      }
      Optional<Object> value = value(inline, nested);
      if (value.isEmpty()) {
        if (!skipStrayLines) {
          return Optional.empty();
        }
      } else {
        values.put(key, value.get());
      }
      i = next;
    }
    return Optional.of(values);
  }

  private static Optional<Object> value(String inline, List<String> nested) {
    List<String> content = nested.stream().filter(line -> !line.isBlank()).toList();
    if (BLOCK_SCALAR.matcher(inline).matches()) {
      List<String> body = trimTrailingBlank(nested);
      int indent =
          body.stream()
              .filter(line -> !line.isBlank())
              .mapToInt(Frontmatter::indent)
              .min()
              .orElse(0);
      List<String> unindented =
          body.stream()
              .map(line -> line.isBlank() ? "" : line.substring(Math.min(indent, line.length())))
              .toList();
      return Optional.of(
          inline.startsWith("|")
              ? String.join("\n", unindented)
              : String.join(" ", unindented).strip());
    }
    if (inline.isEmpty()) {
      if (content.isEmpty()) {
        return Optional.of("");
      }
      if (content.stream()
          .allMatch(line -> line.strip().startsWith("- ") || line.strip().equals("-"))) {
        List<String> items = new ArrayList<>();
        for (String line : content) {
          Optional<String> item = scalar(line.strip().substring(1).strip());
          if (item.isEmpty()) {
            return Optional.empty();
          }
          items.add(item.get());
        }
        return Optional.of(List.copyOf(items));
      }
      // A plain scalar that starts on the next line.
      return scalar(String.join(" ", content.stream().map(String::strip).toList()))
          .map(Object.class::cast);
    }
    if (content.isEmpty()) {
      return scalar(inline).map(Object.class::cast);
    }
    // A scalar continued over several lines (quoted or not) folds its line breaks into spaces.
    return scalar(inline + " " + String.join(" ", content.stream().map(String::strip).toList()))
        .map(Object.class::cast);
  }

  /** One scalar: quoted, or plain with YAML's restrictions; empty when it is not valid. */
  private static Optional<String> scalar(String raw) {
    String value = raw.strip();
    if (value.isEmpty()) {
      return Optional.of("");
    }
    char first = value.charAt(0);
    if (first == '"') {
      return doubleQuoted(value);
    }
    if (first == '\'') {
      return singleQuoted(value);
    }
    if ("{}[]*&!|>%@`".indexOf(first) >= 0) {
      return Optional.empty();
    }
    int comment = value.indexOf(" #");
    if (comment >= 0) {
      value = value.substring(0, comment).strip();
    }
    if (value.startsWith("#")) {
      return Optional.of("");
    }
    if (value.contains(": ") || value.endsWith(":")) {
      return Optional.empty();
    }
    if (value.equals("~") || value.equals("null") || value.equals("Null") || value.equals("NULL")) {
      return Optional.of("");
    }
    return Optional.of(value);
  }

  private static Optional<String> doubleQuoted(String value) {
    StringBuilder text = new StringBuilder();
    int i = 1;
    while (i < value.length()) {
      char c = value.charAt(i);
      if (c == '"') {
        return trailingAllowed(value.substring(i + 1))
            ? Optional.of(text.toString())
            : Optional.empty();
      }
      if (c == '\\' && i + 1 < value.length()) {
        char escaped = value.charAt(i + 1);
        switch (escaped) {
          case 'n' -> text.append('\n');
          case 't' -> text.append('\t');
          case 'r' -> text.append('\r');
          case '0' -> text.append('\0');
          case '"', '\\', '/', ' ' -> text.append(escaped);
          case 'u' -> {
            if (i + 6 > value.length()) {
              return Optional.empty();
            }
            try {
              text.append((char) Integer.parseInt(value.substring(i + 2, i + 6), 16));
            } catch (NumberFormatException notHex) {
              return Optional.empty();
            }
            i += 4;
          }
          default -> {
            return Optional.empty();
          }
        }
        i += 2;
        continue;
      }
      text.append(c);
      i++;
    }
    return Optional.empty();
  }

  private static Optional<String> singleQuoted(String value) {
    StringBuilder text = new StringBuilder();
    int i = 1;
    while (i < value.length()) {
      char c = value.charAt(i);
      if (c == '\'') {
        if (i + 1 < value.length() && value.charAt(i + 1) == '\'') {
          text.append('\'');
          i += 2;
          continue;
        }
        return trailingAllowed(value.substring(i + 1))
            ? Optional.of(text.toString())
            : Optional.empty();
      }
      text.append(c);
      i++;
    }
    return Optional.empty();
  }

  private static boolean trailingAllowed(String rest) {
    String trailing = rest.strip();
    return trailing.isEmpty() || trailing.startsWith("#");
  }

  private static int indent(String line) {
    int indent = 0;
    while (indent < line.length() && Character.isWhitespace(line.charAt(indent))) {
      indent++;
    }
    return indent;
  }

  private static List<String> trimTrailingBlank(List<String> lines) {
    int end = lines.size();
    while (end > 0 && lines.get(end - 1).isBlank()) {
      end--;
    }
    return lines.subList(0, end);
  }
}
