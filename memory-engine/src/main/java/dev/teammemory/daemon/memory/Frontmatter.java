package dev.teammemory.daemon.memory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * The YAML frontmatter of a topic file: the block between a leading {@code ---} line and the next
 * one (found by {@link FrontmatterBlock}), read by SnakeYAML's safe loader. Teammates' files are
 * untrusted input, so the loader builds only plain maps, lists and strings, refuses alias bombs and
 * recursive keys, and reads at most {@value #MAX_CODE_POINTS} characters. Parsing is tolerant in
 * the reference's way: when the block is not valid YAML, a second pass quotes values that contain
 * characters YAML treats specially (a {@code : } in a description is the usual culprit) and reads
 * each top-level entry on its own, skipping those it still cannot read; when nothing can be read,
 * the file simply has no frontmatter. It never throws.
 *
 * @param values each key's value: a {@link String}, a {@code List} or a {@code Map} of them
 */
record Frontmatter(Map<String, Object> values) {

  /** Frontmatter is a few lines; a block larger than this is not read. */
  static final int MAX_CODE_POINTS = 256 * 1024;

  private static final int MAX_ALIASES = 10;
  private static final int MAX_NESTING = 10;

  private static final Pattern SIMPLE_KEY_LINE = Pattern.compile("^([a-zA-Z_-]+):\\s+(.+)$");
  private static final Pattern YAML_SPECIAL = Pattern.compile("[{}\\[\\]*&#!|>%@`]|: ");

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

  /**
   * The memory's type in either of the two forms in use: a top-level {@code type:} (older agents
   * and tmem before both were written) or {@code type:} nested under {@code metadata:} (what
   * today's Claude Code tells its model to write). The first that names a known type wins.
   */
  Optional<MemoryType> type() {
    Optional<MemoryType> topLevel = string("type").flatMap(MemoryType::parse);
    if (topLevel.isPresent()) {
      return topLevel;
    }
    return values.get("metadata") instanceof Map<?, ?> metadata
            && metadata.get("type") instanceof String nested
        ? MemoryType.parse(nested)
        : Optional.empty();
  }

  /** Reads the frontmatter at the start of {@code markdown}; {@link #NONE} when there is none. */
  static Frontmatter parse(String markdown) {
    OptionalInt end = FrontmatterBlock.end(markdown);
    if (end.isEmpty()) {
      return NONE;
    }
    // The opening fence, the block's lines, the closing fence (trailing empty strings dropped).
    String[] lines = markdown.substring(0, end.getAsInt()).split("\r?\n");
    List<String> block = List.of(lines).subList(1, lines.length - 1);
    return load(String.join("\n", block))
        .or(() -> entryByEntry(quoteProblematicValues(block)))
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
   * Each top-level entry (a line at the left margin and the indented lines under it) loaded on its
   * own, so one that is still not YAML (a stray sentence, an unterminated quote) costs only itself.
   */
  private static Optional<Map<String, Object>> entryByEntry(List<String> block) {
    List<List<String>> entries = new ArrayList<>();
    for (String line : block) {
      boolean continuation = !line.isEmpty() && Character.isWhitespace(line.charAt(0));
      if (continuation && !entries.isEmpty()) {
        entries.getLast().add(line);
      } else {
        entries.add(new ArrayList<>(List.of(line)));
      }
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (List<String> entry : entries) {
      load(String.join("\n", entry)).ifPresent(values::putAll);
    }
    return values.isEmpty() ? Optional.empty() : Optional.of(values);
  }

  /** A block as a map of strings, lists and maps; empty when it is not a YAML mapping. */
  private static Optional<Map<String, Object>> load(String yaml) {
    Object root;
    try {
      root = yaml().load(yaml);
    } catch (YAMLException | ClassCastException | IllegalArgumentException notYaml) {
      return Optional.empty();
    }
    if (root == null) {
      return Optional.of(Map.of());
    }
    if (!(root instanceof Map<?, ?> map)) {
      return Optional.empty();
    }
    return Optional.of(plain(map));
  }

  private static Map<String, Object> plain(Map<?, ?> map) {
    Map<String, Object> values = new LinkedHashMap<>();
    map.forEach(
        (key, value) -> {
          Object plain = plain(value);
          if (key != null && plain != null) {
            values.put(String.valueOf(key), plain);
          }
        });
    return values;
  }

  private static Object plain(Object value) {
    return switch (value) {
      case null -> null;
      case Map<?, ?> map -> plain(map);
      case List<?> list ->
          list.stream().map(Frontmatter::plain).filter(item -> item != null).toList();
      default -> String.valueOf(value);
    };
  }

  /**
   * A loader for untrusted text: safe types only, scalars kept as the text they were written as.
   */
  private static Yaml yaml() {
    LoaderOptions options = new LoaderOptions();
    options.setMaxAliasesForCollections(MAX_ALIASES);
    options.setAllowRecursiveKeys(false);
    options.setNestingDepthLimit(MAX_NESTING);
    options.setCodePointLimit(MAX_CODE_POINTS);
    return new Yaml(new TextScalars(options));
  }

  /** Numbers, booleans and dates stay text: a name of {@code 2024-01-01} is not a date. */
  private static final class TextScalars extends SafeConstructor {
    TextScalars(LoaderOptions options) {
      super(options);
      for (Tag tag : List.of(Tag.INT, Tag.FLOAT, Tag.BOOL, Tag.TIMESTAMP, Tag.BINARY)) {
        yamlConstructors.put(tag, new ConstructYamlStr());
      }
    }
  }
}
