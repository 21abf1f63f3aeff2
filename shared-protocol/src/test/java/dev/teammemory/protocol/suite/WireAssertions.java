package dev.teammemory.protocol.suite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.Checksums;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** Checks of wire values the protocol fixes the form of. */
final class WireAssertions {

  static final Pattern CHECKSUM = Pattern.compile("sha256:[0-9a-f]{64}");
  static final Pattern QUOTED_CHECKSUM = Pattern.compile("\"sha256:[0-9a-f]{64}\"");
  static final Pattern ISO_MILLIS =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");

  private WireAssertions() {}

  static void assertChecksum(JsonNode node, String field) {
    assertThat(node.isTextual()).as("%s is a string: %s", field, node).isTrue();
    assertThat(node.textValue()).as(field).matches(CHECKSUM);
  }

  /** ISO-8601 UTC with exactly three fraction digits, as {@code lastModified} must be. */
  static void assertIsoMillis(JsonNode node, String field) {
    assertThat(node.isTextual()).as("%s is a string: %s", field, node).isTrue();
    assertThat(node.textValue()).as(field).matches(ISO_MILLIS);
    assertThat(Instant.parse(node.textValue())).as(field).isNotNull();
  }

  static void assertVersion(JsonNode node, long expected) {
    assertThat(node.isIntegralNumber()).as("version is an integer: %s", node).isTrue();
    assertThat(node.longValue()).as("version").isEqualTo(expected);
  }

  /** The {@code ETag} header is the quoted {@code checksum}. */
  static void assertEtagOf(Reply reply, String checksum) {
    assertThat(reply.header("ETag"))
        .as("ETag of " + reply.request())
        .isEqualTo('"' + checksum + '"');
  }

  /** What the protocol says {@code entryChecksums} must be for these entries. */
  static Map<String, String> checksumsOf(Map<String, String> entries) {
    Map<String, String> checksums = new TreeMap<>();
    entries.forEach((key, content) -> checksums.put(key, Checksums.ofContent(content)));
    return checksums;
  }

  /** The repository checksum a client computes for these entries. */
  static String repositoryChecksumOf(Map<String, String> entries) {
    return Checksums.ofRepository(checksumsOf(entries));
  }
}
