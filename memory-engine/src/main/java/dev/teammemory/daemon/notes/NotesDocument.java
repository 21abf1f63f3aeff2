package dev.teammemory.daemon.notes;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.transcript.Tokens;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A notes file split into its sections, losslessly: rendering an unchanged document gives back the
 * exact text. A section is a {@code # } header line, the italic description line under it when
 * there is one, and the body below. Headers and descriptions are the template's and never change;
 * only bodies are rewritten.
 *
 * @param preamble lines before the first header
 */
public record NotesDocument(List<String> preamble, List<Section> sections) {

  public NotesDocument {
    preamble = List.copyOf(preamble);
    sections = List.copyOf(sections);
  }

  /**
   * @param description the italic line ({@code _…_}) under the header, or empty
   * @param body the lines after the header and description
   */
  public record Section(String header, Optional<String> description, List<String> body) {
    public Section {
      requireNonNull(header, "header is null");
      requireNonNull(description, "description is null");
      body = List.copyOf(body);
    }

    /** The header's text without the leading {@code # }. */
    public String title() {
      return header.substring(2).strip();
    }

    /** The body's text without surrounding blank lines. */
    public String content() {
      return String.join("\n", body).strip();
    }
  }

  public static NotesDocument parse(String text) {
    String[] lines = text.split("\n", -1);
    List<String> preamble = new ArrayList<>();
    List<Section> sections = new ArrayList<>();
    int i = 0;
    while (i < lines.length && !isHeader(lines[i])) {
      preamble.add(lines[i]);
      i++;
    }
    while (i < lines.length) {
      String header = lines[i];
      i++;
      Optional<String> description = Optional.empty();
      if (i < lines.length && isDescription(lines[i])) {
        description = Optional.of(lines[i]);
        i++;
      }
      List<String> body = new ArrayList<>();
      while (i < lines.length && !isHeader(lines[i])) {
        body.add(lines[i]);
        i++;
      }
      sections.add(new Section(header, description, body));
    }
    return new NotesDocument(preamble, sections);
  }

  String render() {
    List<String> lines = new ArrayList<>(preamble);
    for (Section section : sections) {
      lines.add(section.header());
      section.description().ifPresent(lines::add);
      lines.addAll(section.body());
    }
    return String.join("\n", lines);
  }

  /** The header and description lines, which an update must leave exactly as they are. */
  List<String> structure() {
    List<String> structure = new ArrayList<>();
    for (Section section : sections) {
      structure.add(section.header());
      structure.add(section.description().orElse(""));
    }
    return structure;
  }

  /** A copy with one section's body replaced; blank keeps the section empty but spaced. */
  NotesDocument withContent(int index, String content) {
    List<Section> updated = new ArrayList<>(sections);
    Section section = updated.get(index);
    boolean last = index == sections.size() - 1;
    List<String> body = new ArrayList<>();
    if (!content.isBlank()) {
      body.addAll(List.of(content.strip().split("\n", -1)));
    }
    // Keep the blank line that separates a section from the next header, as the template has.
    if (!last || section.body().stream().anyMatch(String::isEmpty)) {
      body.add("");
    }
    updated.set(index, new Section(section.header(), section.description(), body));
    return new NotesDocument(preamble, updated);
  }

  /** Rough tokens per section, measured as the reference measures them (description included). */
  Map<String, Long> sectionTokens() {
    Map<String, Long> tokens = new LinkedHashMap<>();
    for (Section section : sections) {
      List<String> lines = new ArrayList<>();
      section.description().ifPresent(lines::add);
      lines.addAll(section.body());
      String content = String.join("\n", lines).strip();
      if (!content.isEmpty()) {
        tokens.put(section.header(), Tokens.rough(content));
      }
    }
    return tokens;
  }

  private static boolean isHeader(String line) {
    return line.startsWith("# ");
  }

  private static boolean isDescription(String line) {
    String stripped = line.strip();
    return stripped.length() >= 2 && stripped.startsWith("_") && stripped.endsWith("_");
  }
}
