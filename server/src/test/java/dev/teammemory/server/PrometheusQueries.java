package dev.teammemory.server;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The series selectors of PromQL expressions, as far as a dashboard's and an alert file's queries
 * need: each metric name with the label names its matchers use. Functions, aggregations, their
 * grouping labels, durations and string values are not selectors.
 */
final class PrometheusQueries {

  private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
  private static final Pattern DURATION = Pattern.compile("\\[[^\\]]*\\]");
  private static final Pattern GROUPING =
      Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
  private static final Pattern SELECTOR =
      Pattern.compile("([A-Za-z_:][A-Za-z0-9_:]*)(\\s*\\{([^}]*)\\})?(\\s*\\()?");
  private static final Pattern MATCHER =
      Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\s*(?:=~|!~|!=|=)");
  private static final Set<String> KEYWORDS =
      Set.of("and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring");

  private PrometheusQueries() {}

  /** Metric name → the label names its matchers use, over every expression. */
  static Map<String, Set<String>> selectors(Iterable<String> expressions) {
    Map<String, Set<String>> selectors = new LinkedHashMap<>();
    for (String expression : expressions) {
      String plain = STRING.matcher(expression).replaceAll("\"\"");
      plain = DURATION.matcher(plain).replaceAll("");
      plain = GROUPING.matcher(plain).replaceAll("");
      Matcher selector = SELECTOR.matcher(plain);
      while (selector.find()) {
        String name = selector.group(1);
        boolean function = selector.group(4) != null && selector.group(2) == null;
        if (function || KEYWORDS.contains(name)) {
          continue;
        }
        Set<String> labels = selectors.computeIfAbsent(name, ignored -> new LinkedHashSet<>());
        if (selector.group(3) != null) {
          Matcher matcher = MATCHER.matcher(selector.group(3));
          while (matcher.find()) {
            labels.add(matcher.group(1));
          }
        }
      }
    }
    return selectors;
  }

  /** Metric name → its label names, from Prometheus's text exposition format. */
  static Map<String, Set<String>> exported(String exposition) {
    Map<String, Set<String>> exported = new LinkedHashMap<>();
    for (String line : exposition.lines().toList()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.indexOf(' ');
      int end = brace >= 0 && brace < space ? brace : space;
      Set<String> labels =
          exported.computeIfAbsent(line.substring(0, end), ignored -> new LinkedHashSet<>());
      if (end == brace) {
        Matcher matcher = MATCHER.matcher(line.substring(brace, line.lastIndexOf('}')));
        while (matcher.find()) {
          labels.add(matcher.group(1));
        }
      }
    }
    return exported;
  }
}
