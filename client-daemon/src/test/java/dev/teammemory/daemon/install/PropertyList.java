package dev.teammemory.daemon.install;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** Reads a launchd property list's top-level dictionary, as launchd would. */
record PropertyList(Element dictionary) {

  static PropertyList parse(Path file) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    // The DOCTYPE names Apple's DTD; reading it would go to the network.
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    DocumentBuilder builder = factory.newDocumentBuilder();
    Document document = builder.parse(file.toFile());
    Element plist = document.getDocumentElement();
    if (!plist.getTagName().equals("plist")) {
      throw new IllegalArgumentException("not a property list: " + file);
    }
    return new PropertyList(firstElement(plist));
  }

  String string(String key) {
    return value(key).getTextContent();
  }

  List<String> strings(String key) {
    List<String> strings = new ArrayList<>();
    for (Node node = value(key).getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element) {
        strings.add(element.getTextContent());
      }
    }
    return strings;
  }

  private Element value(String key) {
    for (Node node = dictionary.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element
          && element.getTagName().equals("key")
          && element.getTextContent().equals(key)) {
        return nextElement(element);
      }
    }
    throw new IllegalArgumentException("no key " + key + " in the property list");
  }

  private static Element firstElement(Node parent) {
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element) {
        return element;
      }
    }
    throw new IllegalArgumentException("empty element " + parent.getNodeName());
  }

  private static Element nextElement(Node from) {
    for (Node node = from.getNextSibling(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element) {
        return element;
      }
    }
    throw new IllegalArgumentException("no value after " + from.getTextContent());
  }
}
