package dev.teammemory.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.ProtocolJson;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.TooManyEntries;
import dev.teammemory.protocol.store.StoreAnswers;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonBodyWriterTest {

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

    assertThat(JsonBodyWriter.protocolBytes(snapshot))
        .isEqualTo(ProtocolJson.mapper().writeValueAsBytes(snapshot));
  }

  @Test
  void writesCharactersOutsideTheBasicPlaneAsUtf8WhichReadsBackTheSame() throws IOException {
    RepositorySnapshot snapshot = snapshotWith("emoji 😀 and 𝄞");

    byte[] written = JsonBodyWriter.protocolBytes(snapshot);

    assertThat(new String(written, java.nio.charset.StandardCharsets.UTF_8)).contains("😀");
    assertThat(ProtocolJson.mapper().readValue(written, RepositorySnapshot.class))
        .isEqualTo(snapshot);
  }

  @Test
  void leavesOutEmptyDeletedKeysAndTheMessageOfTheEntryCapError() throws IOException {
    String hashes =
        new String(
            JsonBodyWriter.protocolBytes(
                new HashesView(0, "sha256:" + "0".repeat(64), Map.of(), null)),
            java.nio.charset.StandardCharsets.UTF_8);
    assertThat(hashes).doesNotContain("deletedKeys");

    ErrorEnvelope cap = new TooManyEntries(2000, 2013).toEnvelope();
    assertThat(
            new String(JsonBodyWriter.protocolBytes(cap), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"error\":{\"details\":{\"error_code\":\"team_memory_too_many_entries\","
                + "\"max_entries\":2000,\"received_entries\":2013}}}");
  }

  /** A store-API answer: a record with a renamed member and a null one. */
  record Answer(String type, @JsonProperty("next_page") String nextPage, String content)
      implements StoreAnswers.Answer {}

  @Test
  void writesMemoryStoresBodiesAsTheHttpMappingDoesWithNullMembersWrittenOut() throws IOException {
    ObjectMapper httpMapper = new ObjectMapper();
    Answer answer = new Answer("memory", null, AWKWARD);

    byte[] written = new JsonBodyWriter(httpMapper).bytes(answer);

    assertThat(written).isEqualTo(httpMapper.writeValueAsBytes(answer));
    assertThat(new String(written, java.nio.charset.StandardCharsets.UTF_8))
        .startsWith("{\"type\":\"memory\",\"next_page\":null,\"content\":");
  }

  @Test
  void writesOnlyTheBodiesOfTheTwoApis() {
    JsonBodyWriter writer = new JsonBodyWriter(new ObjectMapper());
    Annotation[] none = {};

    assertThat(writer.isWriteable(HashesView.class, HashesView.class, none, null)).isTrue();
    assertThat(writer.isWriteable(Answer.class, Answer.class, none, null)).isTrue();
    assertThat(writer.isWriteable(Map.class, Map.class, none, null)).isFalse();
    assertThat(writer.isWriteable(String.class, String.class, none, null)).isFalse();
  }
}
