package dev.teammemory.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * A launchd property list's top-level dictionary, parsed as XML (without fetching Apple's DTD).
 *
 * @param root the {@code dict} element
 */
record PropertyList(Element root) {

  static PropertyList parse(Path file) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    Element plist = factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
    if (!plist.getTagName().equals("plist") || !"1.0".equals(plist.getAttribute("version"))) {
      throw new AssertionError(file + " is not a version 1.0 property list");
    }
    List<Element> children = children(plist);
    if (children.size() != 1 || !children.getFirst().getTagName().equals("dict")) {
      throw new AssertionError(file + " does not hold exactly one dictionary");
    }
    return new PropertyList(children.getFirst());
  }

  List<String> keys() {
    return entries(root).keySet().stream().toList();
  }

  /**
   * A value as text: a string's content, {@code true}/{@code false}, an integer's digits; a
   * dictionary or array as {@code {key=value, …}} or {@code [value, …]}, so values compare whole.
   */
  String value(String key) {
    return text(element(key));
  }

  String string(String key) {
    Element value = element(key);
    if (!value.getTagName().equals("string")) {
      throw new AssertionError(key + " is a " + value.getTagName() + ", not a string");
    }
    return value.getTextContent();
  }

  List<String> strings(String key) {
    return children(element(key)).stream().map(Element::getTextContent).toList();
  }

  private Element element(String key) {
    Element value = entries(root).get(key);
    if (value == null) {
      throw new AssertionError("no key " + key + " in the property list");
    }
    return value;
  }

  private static String text(Element value) {
    return switch (value.getTagName()) {
      case "true", "false" -> value.getTagName();
      case "dict" -> {
        Map<String, String> values = new LinkedHashMap<>();
        entries(value).forEach((name, element) -> values.put(name, text(element)));
        yield values.toString();
      }
      case "array" -> children(value).stream().map(PropertyList::text).toList().toString();
      default -> value.getTextContent();
    };
  }

  private static Map<String, Element> entries(Element dictionary) {
    Map<String, Element> entries = new LinkedHashMap<>();
    List<Element> children = children(dictionary);
    for (int i = 0; i + 1 < children.size(); i += 2) {
      if (!children.get(i).getTagName().equals("key")) {
        throw new AssertionError("expected a key, found " + children.get(i).getTagName());
      }
      entries.put(children.get(i).getTextContent(), children.get(i + 1));
    }
    if (children.size() % 2 != 0) {
      throw new AssertionError("a dictionary key without a value");
    }
    return entries;
  }

  private static List<Element> children(Node parent) {
    List<Element> elements = new ArrayList<>();
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element) {
        elements.add(element);
      }
    }
    return elements;
  }
}
