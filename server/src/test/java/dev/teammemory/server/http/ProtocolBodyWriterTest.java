package dev.teammemory.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.ProtocolJson;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.TooManyEntries;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProtocolBodyWriterTest {

  private static final String AWKWARD =
      "quote \" backslash \\ slash / tab \t newline \n control \u0001 \u001f del \u007f"
          + " é ü 中文 line\u2028separator";

  private static RepositorySnapshot snapshotWith(String content) {
    return new RepositorySnapshot(
        "acme",
        "acme/widgets",
        3,
        "2026-01-01T00:00:00.000Z",
        "sha256:" + "a".repeat(64),
        new RepositorySnapshot.Content(
            Map.of("a.md", content, "b/é.md", "", "c.md", "plain"),
            Map.of("a.md", "sha256:" + "b".repeat(64))),
        Map.of());
  }

  @Test
  void writesTheSameBytesAsTheProtocolsOwnMapping() throws IOException {
    RepositorySnapshot snapshot = snapshotWith(AWKWARD);

    assertThat(ProtocolBodyWriter.bytes(snapshot))
        .isEqualTo(ProtocolJson.mapper().writeValueAsBytes(snapshot));
  }

  @Test
  void writesCharactersOutsideTheBasicPlaneAsUtf8WhichReadsBackTheSame() throws IOException {
    RepositorySnapshot snapshot = snapshotWith("emoji 😀 and 𝄞");

    byte[] written = ProtocolBodyWriter.bytes(snapshot);

    assertThat(new String(written, java.nio.charset.StandardCharsets.UTF_8)).contains("😀");
    assertThat(ProtocolJson.mapper().readValue(written, RepositorySnapshot.class))
        .isEqualTo(snapshot);
  }

  @Test
  void leavesOutEmptyDeletedKeysAndTheMessageOfTheEntryCapError() throws IOException {
    String hashes =
        new String(
            ProtocolBodyWriter.bytes(new HashesView(0, "sha256:" + "0".repeat(64), Map.of(), null)),
            java.nio.charset.StandardCharsets.UTF_8);
    assertThat(hashes).doesNotContain("deletedKeys");

    ErrorEnvelope cap = new TooManyEntries(2000, 2013).toEnvelope();
    assertThat(new String(ProtocolBodyWriter.bytes(cap), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"error\":{\"details\":{\"error_code\":\"team_memory_too_many_entries\","
                + "\"max_entries\":2000,\"received_entries\":2013}}}");
  }
}
