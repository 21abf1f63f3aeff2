package dev.teammemory.server.http;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ProtocolJson;
import dev.teammemory.protocol.RepositorySnapshot;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The full GET is streamed as PostgreSQL reads it (memory.SnapshotStream); its bytes are exactly
 * those the whole {@link RepositorySnapshot} is written as ({@link JsonBodyWriter}), over more
 * entries than one fetch of the cursor brings, with every character JSON escapes, keys in UTF-8
 * byte order, and deleted keys.
 */
@QuarkusTest
class StreamedFullGetTest {

  private static final String AWKWARD =
      "quote \" backslash \\ slash / tab \t newline \n control \u0001 \u001f del \u007f"
          + " é ü 中文 line\u2028separator emoji 😀 and 𝄞";

  @Test
  void theStreamedBodyIsByteForByteTheWholeSnapshotsAcrossManyFetches() throws IOException {
    String repo = fresh("streamed");
    Map<String, String> entries = new LinkedHashMap<>();
    for (int i = 0; i < 40; i++) {
      entries.put("notes/n" + i + ".md", AWKWARD + " number " + i);
    }
    entries.put("z/中文.md", AWKWARD);
    entries.put("😀/emoji.md", "outside the basic plane: sorts after every BMP key in UTF-8");
    entries.put("\uFB01/ligature.md", "in the BMP above the surrogates: sorts before the emoji");
    entries.put("A.md", "upper case before lower case");
    entries.put("gone.md", "deleted below");
    entries.put("gone-too.md", "deleted below");
    put(repo, Map.of("entries", entries));
    for (String key : new String[] {"gone.md", "gone-too.md"}) {
      as(WRITER)
          .queryParam("repo", repo)
          .queryParam("key", key)
          .delete(PATH)
          .then()
          .statusCode(200);
    }

    Response response = as(READER).queryParam("repo", repo).get(PATH);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.getContentType()).startsWith("application/json");
    byte[] streamed = response.asByteArray();
    RepositorySnapshot snapshot =
        ProtocolJson.mapper().readValue(streamed, RepositorySnapshot.class);
    assertThat(streamed).isEqualTo(JsonBodyWriter.protocolBytes(snapshot));
    assertThat(response.getHeader("ETag")).isEqualTo("\"" + snapshot.checksum() + "\"");
    assertThat(snapshot.content().entries()).hasSize(entries.size() - 2);
    assertThat(snapshot.deletedKeys()).containsOnlyKeys("gone.md", "gone-too.md");
    snapshot
        .content()
        .entries()
        .forEach(
            (key, content) ->
                assertThat(snapshot.content().entryChecksums().get(key))
                    .as(key)
                    .isEqualTo(Checksums.ofContent(content)));
    assertThat(snapshot.content().entries().get("notes/n7.md")).isEqualTo(AWKWARD + " number 7");
  }

  @Test
  void aRepositoryWithoutDeletionsLeavesThemOutAndAnUpToDateClientGets304() throws IOException {
    String repo = fresh("streamed-plain");
    put(repo, Map.of("entries", Map.of("MEMORY.md", "# Index\n", "a.md", "one")));

    Response response = as(READER).queryParam("repo", repo).get(PATH);

    byte[] streamed = response.asByteArray();
    RepositorySnapshot snapshot =
        ProtocolJson.mapper().readValue(streamed, RepositorySnapshot.class);
    assertThat(new String(streamed, java.nio.charset.StandardCharsets.UTF_8))
        .doesNotContain("deletedKeys")
        .startsWith("{\"organizationId\":\"test-owner\",\"repo\":\"" + repo + "\",\"version\":1,");
    assertThat(streamed).isEqualTo(JsonBodyWriter.protocolBytes(snapshot));
    as(READER)
        .queryParam("repo", repo)
        .header("If-None-Match", response.getHeader("ETag"))
        .get(PATH)
        .then()
        .statusCode(304);
    Response head = as(READER).queryParam("repo", repo).head(PATH);
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.getHeader("ETag")).isEqualTo(response.getHeader("ETag"));
    as(READER).queryParam("repo", fresh("never-written")).get(PATH).then().statusCode(404);
  }
}
