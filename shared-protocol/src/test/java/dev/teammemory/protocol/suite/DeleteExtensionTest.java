package dev.teammemory.protocol.suite;

import static dev.teammemory.protocol.suite.WireAssertions.assertEtagOf;
import static dev.teammemory.protocol.suite.WireAssertions.assertIsoMillis;
import static dev.teammemory.protocol.suite.WireAssertions.assertVersion;
import static dev.teammemory.protocol.suite.WireAssertions.checksumsOf;
import static dev.teammemory.protocol.suite.WireAssertions.repositoryChecksumOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.suite.ProtocolServer.Caller;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Explicit deletion with tombstones (PROTOCOL.md "Extensions", "Delete" and "Conditional delete").
 */
class DeleteExtensionTest extends ExtensionSuite {

  @Test
  void deleteRemovesTheKeyAndListsItsLastChecksumInDeletedKeys() {
    String repo = server.newRepository();
    server.write(repo, Map.of("gone.md", "obsolete\n", "kept.md", "still true\n"));

    Reply reply = delete(repo, "gone.md").send().expectStatus(200);

    JsonNode body = reply.json();
    String expected = repositoryChecksumOf(Map.of("kept.md", "still true\n"));
    assertVersion(body.path("version"), 2);
    assertThat(body.path("checksum").textValue()).isEqualTo(expected);
    assertIsoMillis(body.path("lastModified"), "lastModified");
    Map<String, String> tombstone = Map.of("gone.md", Checksums.ofContent("obsolete\n"));

    Reply full = server.get(repo).expectStatus(200);
    JsonNode content = full.json().path("content");
    assertThat(Reply.strings(content.path("entries"))).isEqualTo(Map.of("kept.md", "still true\n"));
    assertThat(Reply.strings(content.path("entryChecksums")))
        .isEqualTo(checksumsOf(Map.of("kept.md", "still true\n")));
    assertThat(Reply.strings(full.json().path("deletedKeys"))).isEqualTo(tombstone);
    assertEtagOf(full, expected);

    JsonNode hashes = server.hashes(repo).expectStatus(200).json();
    assertThat(Reply.strings(hashes.path("entryChecksums")))
        .isEqualTo(checksumsOf(Map.of("kept.md", "still true\n")));
    assertThat(Reply.strings(hashes.path("deletedKeys"))).isEqualTo(tombstone);
  }

  @Test
  void aPutRevivesADeletedKey() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1", "b.md", "2"));
    delete(repo, "a.md").send().expectStatus(200);

    Reply reply = server.put(repo, Map.of("a.md", "back")).expectStatus(200);

    assertVersion(reply.json().path("version"), 3);
    JsonNode body = server.get(repo).expectStatus(200).json();
    assertThat(Reply.strings(body.path("content").path("entries")))
        .isEqualTo(Map.of("a.md", "back", "b.md", "2"));
    assertThat(body.path("deletedKeys").isMissingNode() || body.path("deletedKeys").isEmpty())
        .as("the revived key is no longer deleted: " + body.path("deletedKeys"))
        .isTrue();
  }

  @Test
  void deleteWithAStaleIfMatchIs412AndDeletesNothing() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));
    ProtocolServer.RepositoryState before = server.state(repo);

    delete(repo, "a.md")
        .header("If-Match", '"' + Checksums.ofContent("stale") + '"')
        .send()
        .expectError(412, ErrorCodes.PRECONDITION_FAILED);

    assertThat(server.state(repo)).isEqualTo(before);
  }

  @Test
  void deleteWithTheCurrentIfMatchApplies() {
    String repo = server.newRepository();
    String checksum =
        server.write(repo, Map.of("a.md", "1", "b.md", "2")).json().path("checksum").textValue();

    Reply reply = delete(repo, "a.md").header("If-Match", '"' + checksum + '"').send();

    assertVersion(reply.expectStatus(200).json().path("version"), 2);
  }

  @Test
  void deleteNeedsWriteAccess() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));
    ProtocolServer.RepositoryState before = server.state(repo);

    delete(repo, "a.md").as(Caller.READER).send().expectError(403, ErrorCodes.FORBIDDEN);
    delete(repo, "a.md").as(Caller.OUTSIDER).send().expectError(404, ErrorCodes.NOT_FOUND);
    delete(repo, "a.md").as(Caller.ANONYMOUS).send().expectError(401, ErrorCodes.UNAUTHORIZED);

    assertThat(server.state(repo)).isEqualTo(before);
  }

  @Test
  void aDeletionIsTheNewestVersionInTheKeysHistory() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1", "b.md", "2"));

    long version = delete(repo, "a.md").send().expectStatus(200).json().path("version").longValue();

    JsonNode newest =
        server
            .call("GET", HistoryExtensionTest.HISTORY_PATH)
            .query("repo", repo)
            .query("key", "a.md")
            .send()
            .expectStatus(200)
            .json()
            .path("versions")
            .get(0);
    assertThat(newest.path("deleted").booleanValue())
        .as("newest is the tombstone: " + newest)
        .isTrue();
    assertThat(newest.path("version").longValue()).isEqualTo(version);
  }

  @Test
  void deleteNeedsAValidKey() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));
    ProtocolServer.RepositoryState before = server.state(repo);

    server.memory("DELETE", repo).send().expectError(400, ErrorCodes.INVALID_PARAMETER);
    JsonNode error = delete(repo, "../a.md").send().expectError(400, ErrorCodes.INVALID_KEY);

    assertThat(error.path("details").path("key").textValue()).isEqualTo("../a.md");
    assertThat(server.state(repo)).isEqualTo(before);
  }

  @Test
  void deleteWithTheKeysCurrentExpectedChecksumApplies() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1", "b.md", "2"));

    Reply reply = delete(repo, "a.md").query("expected_checksum", Checksums.ofContent("1")).send();

    assertVersion(reply.expectStatus(200).json().path("version"), 2);
    assertThat(Reply.strings(server.hashes(repo).json().path("deletedKeys")))
        .isEqualTo(Map.of("a.md", Checksums.ofContent("1")));
  }

  @Test
  void deleteWithAnExpectedChecksumATeammateChangedIs412AndDeletesNothing() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));
    server.put(repo, Map.of("a.md", "changed by a teammate")).expectStatus(200);
    ProtocolServer.RepositoryState before = server.state(repo);

    JsonNode error =
        delete(repo, "a.md")
            .query("expected_checksum", Checksums.ofContent("1"))
            .send()
            .expectError(412, ErrorCodes.PRECONDITION_FAILED);

    assertThat(error.path("details").path("checksum").textValue())
        .isEqualTo(Checksums.ofContent("changed by a teammate"));
    assertThat(server.state(repo)).isEqualTo(before);
  }

  @Test
  void anExpectedChecksumThatIsNotAChecksumIs400() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));
    ProtocolServer.RepositoryState before = server.state(repo);

    delete(repo, "a.md")
        .query("expected_checksum", "1")
        .send()
        .expectError(400, ErrorCodes.INVALID_PARAMETER);

    assertThat(server.state(repo)).isEqualTo(before);
  }

  private static ProtocolServer.HttpCall delete(String repo, String key) {
    return server.memory("DELETE", repo).query("key", key);
  }
}
