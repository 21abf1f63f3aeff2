package dev.teammemory.server.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A memory's frontmatter ({@code ---} lines at its top, holding {@code name:}, {@code type:},
 * {@code description:}) as fields, and the body after it. Lenient: what is not {@code key: value}
 * is ignored, and a memory without frontmatter has no fields.
 */
record Frontmatter(List<Field> fields, String body) {

  /** One {@code key: value} line. */
  record Field(String name, String value) {}

  Frontmatter {
    fields = List.copyOf(fields);
  }

  static Frontmatter of(String text) {
    String normalized = text.replace("\r\n", "\n");
    if (!normalized.startsWith("---\n")) {
      return new Frontmatter(List.of(), text);
    }
    int end = normalized.indexOf("\n---", 3);
    if (end < 0) {
      return new Frontmatter(List.of(), text);
    }
    List<Field> fields = new ArrayList<>();
    for (String line : normalized.substring(4, end).split("\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && !line.startsWith(" ") && !line.startsWith("#")) {
        fields.add(
            new Field(
                line.substring(0, colon).strip(), unquote(line.substring(colon + 1).strip())));
      }
    }
    int bodyStart = normalized.indexOf('\n', end + 1);
    return new Frontmatter(fields, bodyStart < 0 ? "" : normalized.substring(bodyStart + 1));
  }

  Optional<String> field(String name) {
    return fields.stream().filter(field -> field.name().equals(name)).map(Field::value).findFirst();
  }

  private static String unquote(String value) {
    if (value.length() >= 2
        && ((value.startsWith("\"") && value.endsWith("\""))
            || (value.startsWith("'") && value.endsWith("'")))) {
      return value.substring(1, value.length() - 1);
    }
    return value;
  }
}
