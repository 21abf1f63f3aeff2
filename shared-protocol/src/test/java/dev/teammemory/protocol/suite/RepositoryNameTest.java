package dev.teammemory.protocol.suite;

import static dev.teammemory.protocol.suite.WireAssertions.assertVersion;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code repo} parameter (PROTOCOL.md "Resource"): percent-encoded or not, matched
 * case-insensitively, answered as spelled by the repository's first write.
 */
class RepositoryNameTest {

  private static ProtocolServer server;

  @BeforeAll
  static void connect() {
    server = ProtocolServer.shared();
  }

  @Test
  void theRepoIsMatchedCaseInsensitively() {
    String repo = server.newRepository();
    String checksum = server.write(repo, Map.of("a.md", "1")).json().path("checksum").textValue();

    Reply upper = server.get(repo.toUpperCase(Locale.ROOT)).expectStatus(200);

    assertThat(upper.json().path("checksum").textValue()).isEqualTo(checksum);
    assertThat(upper.json().path("repo").textValue()).isEqualTo(repo);
  }

  @Test
  void writesThroughAnotherSpellingLandInTheSameRepository() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    Reply reply = server.put(repo.toUpperCase(Locale.ROOT), Map.of("b.md", "2")).expectStatus(200);

    assertVersion(reply.json().path("version"), 2);
    var body = server.get(repo).expectStatus(200).json();
    assertThat(Reply.strings(body.path("content").path("entries")))
        .isEqualTo(Map.of("a.md", "1", "b.md", "2"));
    assertThat(body.path("repo").textValue()).isEqualTo(repo);
  }

  @Test
  void theRepoMayArrivePercentEncodedOrWithALiteralSlash() {
    String repo = server.newRepository();
    String checksum = server.write(repo, Map.of("a.md", "1")).json().path("checksum").textValue();
    String[] parts = repo.split("/");

    Reply encoded =
        server
            .call("GET", ProtocolServer.MEMORY_PATH)
            .rawQuery("repo=" + parts[0] + "%2F" + parts[1])
            .send();
    Reply literal =
        server
            .call("GET", ProtocolServer.MEMORY_PATH)
            .rawQuery("repo=" + parts[0] + "/" + parts[1])
            .send();

    assertThat(encoded.expectStatus(200).json().path("checksum").textValue()).isEqualTo(checksum);
    assertThat(literal.expectStatus(200).json().path("checksum").textValue()).isEqualTo(checksum);
  }
}
