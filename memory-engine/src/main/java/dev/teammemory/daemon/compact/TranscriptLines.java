package dev.teammemory.daemon.compact;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.files.TextFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A transcript's lines as the JSON objects the agent wrote, by 1-based line number. The parser in
 * {@code transcript} keeps only what the memory engine reads; compaction must hand back the kept
 * messages exactly as the agent wrote them, every field included, so it reads the lines a second
 * time here. Lines are numbered as {@link dev.teammemory.daemon.transcript.Transcript} numbers
 * them, so an entry's {@code lineNumber} finds its raw object.
 */
final class TranscriptLines {

  static final ObjectMapper JSON = new ObjectMapper();

  private final Map<Integer, ObjectNode> byLine;

  private TranscriptLines(Map<Integer, ObjectNode> byLine) {
    this.byLine = byLine;
  }

  static TranscriptLines read(Path file) throws IOException {
    try (Reader reader = TextFiles.reader(file)) {
      return read(reader);
    }
  }

  static TranscriptLines parse(String jsonl) {
    try {
      return read(new StringReader(jsonl));
    } catch (IOException impossible) {
      throw new IllegalStateException("reading a string failed", impossible);
    }
  }

  private static TranscriptLines read(Reader source) throws IOException {
    Map<Integer, ObjectNode> byLine = new HashMap<>();
    BufferedReader lines = new BufferedReader(source, 1 << 16);
    int lineNumber = 0;
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      lineNumber++;
      if (line.isBlank()) {
        continue;
      }
      try {
        JsonNode node = JSON.readTree(line);
        if (node instanceof ObjectNode object) {
          byLine.put(lineNumber, object);
        }
      } catch (JsonProcessingException unreadable) {
        // The transcript parser skips the same line; nothing refers to it.
      }
    }
    return new TranscriptLines(byLine);
  }

  /** A copy of the object on that line, so callers may change it freely. */
  Optional<ObjectNode> line(int lineNumber) {
    return Optional.ofNullable(byLine.get(lineNumber)).map(ObjectNode::deepCopy);
  }

  /**
   * The latest entry of each of the given metadata types ({@code custom-title}, {@code tag}), in
   * file order: what the agent reads from a transcript's tail to show a session's name.
   */
  List<ObjectNode> latestOfTypes(List<String> types) {
    Map<String, Integer> latest = new HashMap<>();
    byLine.forEach(
        (lineNumber, node) -> {
          String type = node.path("type").asText("");
          if (types.contains(type)) {
            latest.merge(type, lineNumber, Math::max);
          }
        });
    return latest.values().stream().sorted().map(byLine::get).map(ObjectNode::deepCopy).toList();
  }
}
