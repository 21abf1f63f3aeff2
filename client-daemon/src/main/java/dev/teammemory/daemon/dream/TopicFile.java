package dev.teammemory.daemon.dream;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.memory.MemoryHeader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A topic file read whole: its header (as the scan reports it), its frontmatter block verbatim, and
 * its body. Consolidation rewrites bodies and leaves frontmatter as the author wrote it.
 *
 * @param frontmatter the leading {@code ---} block including both fences and the newline after, or
 *     empty
 */
record TopicFile(MemoryHeader header, String frontmatter, String body) {

  TopicFile {
    requireNonNull(header, "header is null");
    requireNonNull(frontmatter, "frontmatter is null");
    requireNonNull(body, "body is null");
  }

  static TopicFile read(MemoryHeader header) throws IOException {
    String text = Files.readString(header.file(), StandardCharsets.UTF_8);
    if (text.startsWith("---\n") || text.startsWith("---\r\n")) {
      int close = text.indexOf("\n---", 3);
      if (close >= 0) {
        int end = text.indexOf('\n', close + 4);
        end = end < 0 ? text.length() : end + 1;
        return new TopicFile(header, text.substring(0, end), text.substring(end));
      }
    }
    return new TopicFile(header, "", text);
  }

  Path file() {
    return header.file();
  }

  String text() {
    return frontmatter + body;
  }
}
