package dev.teammemory.secrets;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads the rule file, {@code rules.txt} beside this class; its header documents the format. Every
 * error names the file and the line.
 */
final class RuleFile {

  static final String RESOURCE = "rules.txt";

  /**
   * The macro for "a name, then an assignment": a rule whose regex uses it right after its keyword
   * gets a cheap pre-check that an assignment operator follows (see {@link
   * Rule#assignmentFollowsKeyword()}).
   */
  static final String ASSIGN_MACRO = "assign";

  /**
   * What a {@code \b} that opens a rule's regex becomes: the start of the text, or one character
   * that is not an ASCII letter or digit. RE2's {@code \b} counts {@code _} as a word character, so
   * a token after one ({@code TOKEN_ghp_…}, {@code __ghp_…__} in markdown bold) would not be found;
   * tokens themselves begin with a letter or digit, so nothing else changes.
   */
  static final String SEPARATOR_BEFORE = "(?:^|[^0-9A-Za-z])";

  /** What a {@code \b} that closes a rule's regex becomes: see {@link #SEPARATOR_BEFORE}. */
  static final String SEPARATOR_AFTER = "(?:[^0-9A-Za-z]|$)";

  /** Flags that open a regex, such as {@code (?i)}. */
  static final java.util.regex.Pattern LEADING_FLAGS =
      java.util.regex.Pattern.compile("^(?:\\(\\?[a-zA-Z]+\\))*");

  private static final java.util.regex.Pattern MACRO =
      java.util.regex.Pattern.compile("\\{\\{([a-z][a-z0-9-]*)\\}\\}");
  private static final java.util.regex.Pattern NAME =
      java.util.regex.Pattern.compile("[a-z0-9][a-z0-9-]*");

  /** The rule file's global allowlist and its rules, in file order. */
  record Contents(Allowlist global, List<Rule> rules) {
    Contents {
      rules = List.copyOf(rules);
    }
  }

  /** The shipped rule file, read once. */
  static final class Catalog {
    static final Contents CONTENTS = load();

    private Catalog() {}
  }

  private final String source;
  private final Map<String, String> macros = new HashMap<>();
  private final Set<String> ids = new HashSet<>();
  private final List<Rule> rules = new ArrayList<>();
  private Draft global;
  private Draft current;
  private int lineNumber;

  private RuleFile(String source) {
    this.source = source;
  }

  /** The rules shipped with this library. */
  static Contents load() {
    try (InputStream in = RuleFile.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "missing resource " + RESOURCE + " beside " + RuleFile.class);
      }
      return parse(RESOURCE, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  /** Parses rule-file text; {@code source} names it in error messages. */
  static Contents parse(String source, String text) {
    RuleFile file = new RuleFile(source);
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      file.lineNumber = i + 1;
      file.line(lines[i].strip());
    }
    file.finishSection();
    Allowlist global = file.global == null ? Allowlist.NONE : file.global.allowlist();
    return new Contents(global, file.rules);
  }

  private void line(String line) {
    if (line.isEmpty() || line.startsWith("#")) {
      return;
    }
    if (line.startsWith("define ")) {
      define(line.substring("define ".length()));
    } else if (line.startsWith("[")) {
      section(line);
    } else {
      field(line);
    }
  }

  private void define(String definition) {
    int equals = definition.indexOf(" = ");
    if (equals < 0) {
      throw error("expected 'define NAME = FRAGMENT'");
    }
    String name = definition.substring(0, equals).strip();
    if (!NAME.matcher(name).matches()) {
      throw error("bad macro name '" + name + "'");
    }
    macros.put(name, expand(definition.substring(equals + 3).strip()));
  }

  private void section(String line) {
    if (!line.endsWith("]")) {
      throw error("expected '[global]' or '[rule ID]'");
    }
    String header = line.substring(1, line.length() - 1).strip();
    int headerLine = lineNumber;
    Draft next;
    if (header.equals("global")) {
      if (global != null) {
        throw error("second [global] section");
      }
      next = new Draft("global", headerLine);
    } else if (header.startsWith("rule ")) {
      String id = header.substring("rule ".length()).strip();
      if (!NAME.matcher(id).matches()) {
        throw error("bad rule id '" + id + "'");
      }
      if (!ids.add(id)) {
        throw error("duplicate rule id '" + id + "'");
      }
      next = new Draft(id, headerLine);
    } else {
      throw error("unknown section '" + header + "'");
    }
    finishSection();
    lineNumber = headerLine;
    if (header.equals("global")) {
      global = next;
    }
    current = next;
  }

  private void field(String line) {
    int equals = line.indexOf('=');
    if (equals < 0) {
      throw error("expected 'name = value'");
    }
    String name = line.substring(0, equals).strip();
    String value = line.substring(equals + 1).strip();
    if (current == null) {
      throw error("field '" + name + "' outside a section");
    }
    if (value.isEmpty()) {
      throw error("field '" + name + "' has no value");
    }
    boolean isGlobal = current == global;
    switch (name) {
      case "allow" -> current.secretAllow.add(compile(expand(value)));
      case "allow-match" -> current.matchAllow.add(compile(expand(value)));
      case "stopwords" -> current.stopwords.addAll(list(value.toLowerCase(Locale.ROOT)));
      default -> {
        if (isGlobal) {
          throw error("field '" + name + "' is not allowed in [global]");
        }
        ruleField(name, value);
      }
    }
  }

  private void ruleField(String name, String value) {
    switch (name) {
      case "label" -> current.label = once(current.label, name, value);
      case "set" -> {
        if (!value.equals("default") && !value.equals("extended")) {
          throw error("set must be 'default' or 'extended': " + value);
        }
        current.set = once(current.set, name, value);
      }
      case "keywords" -> {
        if (!current.keywords.isEmpty()) {
          throw error("second 'keywords'");
        }
        current.keywords.addAll(list(value));
      }
      case "regex" -> {
        current.assignmentFollowsKeyword = value.contains("{{" + ASSIGN_MACRO + "}}");
        current.regex = once(current.regex, name, separatorBoundaries(expand(value)));
        compile(current.regex);
      }
      case "entropy" -> current.entropy = positiveDouble(name, value);
      case "max-length" -> current.maxLength = (int) positiveDouble(name, value);
      case "require-digit" -> current.requireDigit = yes(name, value);
      case "keyword-at-start" -> {
        if (!value.equals("no")) {
          throw error("keyword-at-start takes only 'no': " + value);
        }
        current.keywordInside = true;
      }
      case "fallback" -> current.fallback = yes(name, value);
      case "match" -> current.matchExamples.add(value);
      case "no-match" -> current.noMatchExamples.add(value);
      default -> throw error("unknown field '" + name + "'");
    }
  }

  private void finishSection() {
    if (current == null || current == global) {
      return;
    }
    Draft draft = current;
    current = null;
    lineNumber = draft.line;
    if (draft.label == null
        || draft.set == null
        || draft.keywords.isEmpty()
        || draft.regex == null) {
      throw error("rule " + draft.id + " needs label, set, keywords and regex");
    }
    Pattern pattern = compile(draft.regex);
    int computed = MatchLengthBound.of(draft.regex);
    boolean unbounded = computed == MatchLengthBound.UNBOUNDED;
    if (unbounded && draft.maxLength == 0) {
      throw error(
          "rule " + draft.id + ": its regex has unbounded repetition, so it needs max-length");
    }
    if (!unbounded && draft.maxLength != 0) {
      throw error(
          "rule " + draft.id + ": its regex is bounded (" + computed + "), so drop max-length");
    }
    rules.add(
        new Rule(
            draft.id,
            draft.label,
            draft.set.equals("default"),
            draft.keywords,
            pattern.pattern(),
            !draft.keywordInside,
            !draft.keywordInside && draft.assignmentFollowsKeyword,
            draft.entropy,
            unbounded ? draft.maxLength : computed,
            unbounded,
            draft.allowlist(),
            draft.requireDigit,
            draft.fallback,
            draft.matchExamples,
            draft.noMatchExamples));
  }

  private String expand(String regex) {
    java.util.regex.Matcher matcher = MACRO.matcher(regex);
    StringBuilder expanded = new StringBuilder();
    while (matcher.find()) {
      String fragment = macros.get(matcher.group(1));
      if (fragment == null) {
        throw error("unknown macro {{" + matcher.group(1) + "}}");
      }
      matcher.appendReplacement(expanded, java.util.regex.Matcher.quoteReplacement(fragment));
    }
    matcher.appendTail(expanded);
    return expanded.toString();
  }

  /**
   * The regex with a {@code \b} at its start (after its flags) or end replaced by {@link
   * #SEPARATOR_BEFORE} or {@link #SEPARATOR_AFTER}.
   */
  static String separatorBoundaries(String regex) {
    java.util.regex.Matcher flags = LEADING_FLAGS.matcher(regex);
    int start = flags.lookingAt() ? flags.end() : 0;
    String head = regex.substring(0, start);
    String body = regex.substring(start);
    if (body.startsWith("\\b")) {
      body = SEPARATOR_BEFORE + body.substring(2);
    }
    if (body.endsWith("\\b") && !body.endsWith("\\\\b")) {
      body = body.substring(0, body.length() - 2) + SEPARATOR_AFTER;
    }
    return head + body;
  }

  private Pattern compile(String regex) {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw error("regex does not compile under RE2J (" + e.getMessage() + "): " + regex);
    }
  }

  private String once(String previous, String name, String value) {
    if (previous != null) {
      throw error("second '" + name + "'");
    }
    return value;
  }

  private double positiveDouble(String name, String value) {
    try {
      double number = Double.parseDouble(value);
      if (number > 0) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw error(name + " must be a positive number: " + value);
  }

  private boolean yes(String name, String value) {
    if (!value.equals("yes")) {
      throw error(name + " takes only 'yes': " + value);
    }
    return true;
  }

  private List<String> list(String value) {
    List<String> items = Arrays.stream(value.split(",")).map(String::strip).toList();
    if (items.stream().anyMatch(String::isEmpty)) {
      throw error("empty item in list: " + value);
    }
    return items;
  }

  private IllegalArgumentException error(String problem) {
    return new IllegalArgumentException(source + ":" + lineNumber + ": " + problem);
  }

  /** A section being read. */
  private static final class Draft {
    final String id;
    final int line;
    final List<Pattern> secretAllow = new ArrayList<>();
    final List<Pattern> matchAllow = new ArrayList<>();
    final List<String> stopwords = new ArrayList<>();
    final List<String> keywords = new ArrayList<>();
    final List<String> matchExamples = new ArrayList<>();
    final List<String> noMatchExamples = new ArrayList<>();
    String label;
    String set;
    String regex;
    double entropy;
    int maxLength;
    boolean requireDigit;
    boolean keywordInside;
    boolean assignmentFollowsKeyword;
    boolean fallback;

    Draft(String id, int line) {
      this.id = id;
      this.line = line;
    }

    Allowlist allowlist() {
      return new Allowlist(secretAllow, matchAllow, stopwords);
    }
  }
}
