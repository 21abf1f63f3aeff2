package dev.teammemory.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VersionChangesTest {

  private static final String CHECKSUM =
      "sha256:2393b496b31a8d584745ed4fc85957f4c3055a36169db110deefeccc43b46cba";

  @Test
  void aBodyWithoutResetReadsAsChanges() throws Exception {
    String body =
        "{\"version\":7,\"checksum\":\""
            + CHECKSUM
            + "\",\"changed\":{\"a.md\":\""
            + CHECKSUM
            + "\"},\"deleted\":{}}";

    VersionChanges changes = ProtocolJson.mapper().readValue(body, VersionChanges.class);

    assertThat(changes.reset()).isFalse();
    assertThat(changes.version()).isEqualTo(7);
    assertThat(changes.changed()).containsOnlyKeys("a.md");
    assertThat(changes.authorOf("a.md")).isEmpty();
  }

  @Test
  void theAuthorsOfChangedKeysReadBack() throws Exception {
    VersionChanges changes =
        VersionChanges.of(
            7,
            CHECKSUM,
            java.util.Map.of("a.md", CHECKSUM),
            java.util.Map.of(),
            java.util.Map.of("a.md", "alice"));

    String written = ProtocolJson.mapper().writeValueAsString(changes);
    VersionChanges read = ProtocolJson.mapper().readValue(written, VersionChanges.class);

    assertThat(written).contains("\"authors\":{\"a.md\":\"alice\"}");
    assertThat(read).isEqualTo(changes);
    assertThat(read.authorOf("a.md")).contains("alice");
  }

  @Test
  void whatTheServerWritesReadsBackTheSame() throws Exception {
    VersionChanges reset = VersionChanges.reset(9, CHECKSUM);

    String written = ProtocolJson.mapper().writeValueAsString(reset);

    assertThat(ProtocolJson.mapper().readValue(written, VersionChanges.class)).isEqualTo(reset);
  }
}
