package dev.teammemory.protocol.suite;

import static dev.teammemory.protocol.suite.WireAssertions.assertIsoMillis;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.suite.ProtocolServer.Caller;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Entry history, restore and purge (PROTOCOL.md "Extensions", "History"). */
class HistoryExtensionTest extends ExtensionSuite {

  static final String HISTORY_PATH = ProtocolServer.MEMORY_PATH + "/history";

  @Test
  void historyListsEveryContentOfAKeyNewestFirst() {
    String repo = server.newRepository();
    List<Long> versions = new ArrayList<>();
    for (String content : List.of("first\n", "second\n", "third\n")) {
      versions.add(
          server
              .put(repo, Map.of("MEMORY.md", content, "other.md", "other " + content))
              .expectStatus(200)
              .json()
              .path("version")
              .longValue());
    }

    Reply reply = history(repo, "MEMORY.md").send().expectStatus(200);

    JsonNode body = reply.json();
    assertThat(body.path("repo").textValue()).isEqualTo(repo);
    assertThat(body.path("key").textValue()).isEqualTo("MEMORY.md");
    JsonNode kept = body.path("versions");
    assertThat(kept.isArray()).as(reply.describe()).isTrue();
    assertThat(kept).hasSize(3);
    List<String> contents = List.of("third\n", "second\n", "first\n");
    for (int index = 0; index < 3; index++) {
      JsonNode version = kept.get(index);
      assertThat(version.path("version").longValue()).isEqualTo(versions.get(2 - index));
      assertThat(version.path("content").textValue()).isEqualTo(contents.get(index));
      assertThat(version.path("checksum").textValue())
          .isEqualTo(Checksums.ofContent(contents.get(index)));
      assertThat(
              version.path("author").isTextual() && !version.path("author").textValue().isBlank())
          .as("author names who wrote it: " + version)
          .isTrue();
      assertIsoMillis(version.path("at"), "at");
      assertThat(version.path("deleted").isBoolean()).as("deleted is a boolean").isTrue();
      assertThat(version.path("deleted").booleanValue()).isFalse();
    }
  }

  @Test
  void restoringIsAPutOfAnOldContent() {
    String repo = server.newRepository();
    String original =
        server
            .put(repo, Map.of("a.md", "good"))
            .expectStatus(200)
            .json()
            .path("checksum")
            .textValue();
    server.put(repo, Map.of("a.md", "bad")).expectStatus(200);
    String old =
        history(repo, "a.md")
            .send()
            .expectStatus(200)
            .json()
            .path("versions")
            .get(1)
            .path("content")
            .textValue();

    Reply restored = server.put(repo, Map.of("a.md", old)).expectStatus(200);

    assertThat(restored.json().path("checksum").textValue()).isEqualTo(original);
    assertThat(history(repo, "a.md").send().json().path("versions")).hasSize(3);
  }

  @Test
  void aReaderCanReadHistoryAndOthersCannot() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    history(repo, "a.md").as(Caller.READER).send().expectStatus(200);
    history(repo, "a.md").as(Caller.OUTSIDER).send().expectError(404, ErrorCodes.NOT_FOUND);
    history(repo, "a.md").as(Caller.ANONYMOUS).send().expectError(401, ErrorCodes.UNAUTHORIZED);
  }

  @Test
  void historyNeedsAValidKey() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    server
        .call("GET", HISTORY_PATH)
        .query("repo", repo)
        .send()
        .expectError(400, ErrorCodes.INVALID_PARAMETER);
    history(repo, "../a.md").send().expectError(400, ErrorCodes.INVALID_KEY);
  }

  @Test
  void aWriterPurgesOneVersionAndKeepsTheOthers() {
    String repo = server.newRepository();
    server.put(repo, Map.of("a.md", "kept\n")).expectStatus(200);
    long leaked =
        server
            .put(repo, Map.of("a.md", "leaked secret\n"))
            .expectStatus(200)
            .json()
            .path("version")
            .longValue();
    server.put(repo, Map.of("a.md", "fixed\n")).expectStatus(200);
    ProtocolServer.RepositoryState current = server.state(repo);

    Reply purge = purge(repo, "a.md", leaked).send();

    assertThat(purge.status()).as(purge.describe()).isIn(200, 204);
    JsonNode kept = history(repo, "a.md").send().expectStatus(200).json().path("versions");
    List<String> contents = new ArrayList<>();
    kept.forEach(version -> contents.add(version.path("content").textValue()));
    assertThat(contents).containsExactly("fixed\n", "kept\n");
    assertThat(server.state(repo)).as("purging history leaves the entries").isEqualTo(current);
  }

  @Test
  void aReaderCannotPurge() {
    String repo = server.newRepository();
    long version =
        server.put(repo, Map.of("a.md", "1")).expectStatus(200).json().path("version").longValue();
    server.put(repo, Map.of("a.md", "2")).expectStatus(200);

    purge(repo, "a.md", version).as(Caller.READER).send().expectError(403, ErrorCodes.FORBIDDEN);

    assertThat(history(repo, "a.md").send().json().path("versions")).hasSize(2);
  }

  @Test
  void purgeNeedsAVersionNumber() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    server
        .call("DELETE", HISTORY_PATH)
        .query("repo", repo)
        .query("key", "a.md")
        .query("version", "latest")
        .send()
        .expectError(400, ErrorCodes.INVALID_PARAMETER);

    assertThat(history(repo, "a.md").send().json().path("versions")).hasSize(1);
  }

  private static ProtocolServer.HttpCall history(String repo, String key) {
    return server.call("GET", HISTORY_PATH).query("repo", repo).query("key", key);
  }

  private static ProtocolServer.HttpCall purge(String repo, String key, long version) {
    return server
        .call("DELETE", HISTORY_PATH)
        .query("repo", repo)
        .query("key", key)
        .query("version", Long.toString(version));
  }
}
