package dev.teammemory.daemon.dream;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.daemon.memory.FrontmatterBlock;
import dev.teammemory.daemon.memory.MemoryHeader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A topic file read whole: its header (as the scan reports it), its frontmatter block verbatim, and
 * its body. Consolidation rewrites bodies and leaves frontmatter as the author wrote it.
 *
 * @param frontmatter the leading {@code ---} block (as {@link FrontmatterBlock} finds it) including
 *     a byte order mark before it, both fences and the newline after, or empty
 */
record TopicFile(MemoryHeader header, String frontmatter, String body) {

  TopicFile {
    requireNonNull(header, "header is null");
    requireNonNull(frontmatter, "frontmatter is null");
    requireNonNull(body, "body is null");
  }

  /** Consolidation rewrites topic files; one larger than this is left as it is. */
  static final int MAX_BYTES = 1024 * 1024;

  /**
   * The topic file, or empty when consolidation must leave it as it is: larger than {@value
   * #MAX_BYTES} bytes or not valid UTF-8, so that rewriting it could change what it holds.
   */
  static Optional<TopicFile> read(MemoryHeader header) throws IOException {
    Optional<String> exact = TextFiles.readExactly(header.file(), MAX_BYTES);
    if (exact.isEmpty()) {
      return Optional.empty();
    }
    String text = exact.get();
    OptionalInt end = FrontmatterBlock.end(text);
    if (end.isPresent()) {
      int body = end.getAsInt();
      return Optional.of(new TopicFile(header, text.substring(0, body), text.substring(body)));
    }
    return Optional.of(new TopicFile(header, "", text));
  }

  Path file() {
    return header.file();
  }

  String text() {
    return frontmatter + body;
  }
}
