package dev.teammemory.deploy;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One value of a parsed YAML document, with the path that led to it, so that a failed lookup says
 * where in which file it failed ({@code deployment.yaml:spec.template.spec.containers[0]}).
 *
 * @param where the file and path of this value
 * @param value a map, list, string, number, boolean or null, as snakeyaml loaded it
 */
record YamlNode(String where, Object value) {

  YamlNode {
    requireNonNull(where, "where is null");
  }

  /** The value at a path of map keys; fails naming the path when any step is missing. */
  YamlNode get(String... keys) {
    YamlNode node = this;
    for (String key : keys) {
      node =
          node.find(key)
              .orElseThrow(
                  () -> new AssertionError("no " + key + " at " + this.where + path(keys)));
    }
    return node;
  }

  Optional<YamlNode> find(String key) {
    Map<String, Object> map = map();
    return map.containsKey(key)
        ? Optional.of(new YamlNode(where + (where.endsWith(":") ? "" : ".") + key, map.get(key)))
        : Optional.empty();
  }

  boolean has(String key) {
    return map().containsKey(key);
  }

  @SuppressWarnings("unchecked")
  Map<String, Object> map() {
    if (!(value instanceof Map<?, ?>)) {
      throw new AssertionError(where + " is not a map: " + value);
    }
    return (Map<String, Object>) value;
  }

  /** A map's entries as nodes, in file order. */
  Map<String, YamlNode> entries() {
    Map<String, YamlNode> entries = new LinkedHashMap<>();
    map().keySet().forEach(key -> entries.put(key, find(key).orElseThrow()));
    return entries;
  }

  List<YamlNode> list() {
    if (!(value instanceof List<?> items)) {
      throw new AssertionError(where + " is not a list: " + value);
    }
    List<YamlNode> nodes = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      nodes.add(new YamlNode(where + "[" + i + "]", items.get(i)));
    }
    return nodes;
  }

  /** A scalar as the text YAML wrote (numbers and booleans included). */
  String text() {
    if (value instanceof Map<?, ?> || value instanceof List<?> || value == null) {
      throw new AssertionError(where + " is not a scalar: " + value);
    }
    return String.valueOf(value);
  }

  int integer() {
    if (!(value instanceof Integer number)) {
      throw new AssertionError(where + " is not an integer: " + value);
    }
    return number;
  }

  /** A map of strings, as labels and selectors are. */
  Map<String, String> strings() {
    Map<String, String> strings = new LinkedHashMap<>();
    entries().forEach((key, node) -> strings.put(key, node.text()));
    return strings;
  }

  private static String path(String... keys) {
    return "." + String.join(".", keys);
  }
}
