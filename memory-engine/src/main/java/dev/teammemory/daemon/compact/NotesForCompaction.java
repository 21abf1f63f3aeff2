package dev.teammemory.daemon.compact;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Session notes as they go into a compacted conversation. A section longer than {@value
 * #MAX_SECTION_CHARACTERS} characters is cut at a line boundary and marked, so that one runaway
 * section cannot eat the room compaction just made; the summary then says where the full notes are.
 *
 * @param text the notes to insert
 * @param truncated whether any section was cut
 */
record NotesForCompaction(String text, boolean truncated) {

  /** 2,000 tokens at four characters a token, as the reference reckons. */
  static final int MAX_SECTION_CHARACTERS = 8_000;

  static final String TRUNCATION_MARK = "\n[... section truncated for length ...]";

  static NotesForCompaction of(String notes) {
    List<String> output = new ArrayList<>();
    boolean truncated = false;
    String header = null;
    List<String> body = new ArrayList<>();
    for (String line : notes.split("\n", -1)) {
      if (line.startsWith("# ")) {
        truncated |= flush(header, body, output);
        header = line;
        body = new ArrayList<>();
      } else {
        body.add(line);
      }
    }
    truncated |= flush(header, body, output);
    return new NotesForCompaction(String.join("\n", output), truncated);
  }

  private static boolean flush(String header, List<String> body, List<String> output) {
    if (header == null) {
      output.addAll(body);
      return false;
    }
    if (String.join("\n", body).length() <= MAX_SECTION_CHARACTERS) {
      output.add(header);
      output.addAll(body);
      return false;
    }
    output.add(header);
    int characters = 0;
    for (String line : body) {
      if (characters + line.length() + 1 > MAX_SECTION_CHARACTERS) {
        break;
      }
      output.add(line);
      characters += line.length() + 1;
    }
    output.add(TRUNCATION_MARK);
    return true;
  }

  /**
   * Whether the notes hold nothing beyond their template: no section has a line other than its
   * header and italic description, or the text is exactly the user's custom template. Notes like
   * that summarize nothing, and compaction falls back to a full summary.
   */
  static boolean isTemplateOnly(String notes, Optional<String> customTemplate) {
    if (customTemplate.isPresent() && customTemplate.get().strip().equals(notes.strip())) {
      return true;
    }
    for (String line : notes.split("\n", -1)) {
      String stripped = line.strip();
      boolean structure =
          stripped.isEmpty()
              || line.startsWith("# ")
              || (stripped.length() >= 2 && stripped.startsWith("_") && stripped.endsWith("_"));
      if (!structure) {
        return false;
      }
    }
    return true;
  }

  /** The body of each {@code # } section, by title, for the offline summary. */
  static java.util.Map<String, String> sections(String notes) {
    java.util.Map<String, String> sections = new java.util.LinkedHashMap<>();
    String title = null;
    StringBuilder body = new StringBuilder();
    for (String line : notes.split("\n", -1)) {
      if (line.startsWith("# ")) {
        if (title != null) {
          sections.put(title, body.toString().strip());
        }
        title = line.substring(2).strip();
        body = new StringBuilder();
        continue;
      }
      String stripped = line.strip();
      boolean description =
          body.isEmpty()
              && stripped.length() >= 2
              && stripped.startsWith("_")
              && stripped.endsWith("_");
      if (!description) {
        body.append(line).append('\n');
      }
    }
    if (title != null) {
      sections.put(title, body.toString().strip());
    }
    return sections;
  }
}
