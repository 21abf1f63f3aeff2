package dev.teammemory.protocol.suite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.suite.ProtocolServer.Caller;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The long-poll change feed (PROTOCOL.md "Extensions", "Change feed" and "Changes since a
 * version").
 */
class ChangeFeedExtensionTest extends ExtensionSuite {

  static final String CHANGES_PATH = ProtocolServer.MEMORY_PATH + "/changes";

  @Test
  void aStaleSinceAnswersTheHashesViewAtOnce() {
    String repo = server.newRepository();
    Map<String, String> entries = Map.of("a.md", "1", "b.md", "2");
    server.write(repo, entries);

    // With a long wait, only an immediate answer can be a 200 before the deadline below.
    Reply reply = changes(repo, Checksums.EMPTY, 30).send().expectStatus(200);

    assertThat(reply.json().path("checksum").textValue())
        .isEqualTo(WireAssertions.repositoryChecksumOf(entries));
    assertThat(Reply.strings(reply.json().path("entryChecksums")))
        .isEqualTo(WireAssertions.checksumsOf(entries));
    assertThat(reply.json().path("version").longValue()).isEqualTo(1);
  }

  @Test
  void anUnchangedRepositoryAnswers304AfterTheWait() {
    String repo = server.newRepository();
    String checksum = server.write(repo, Map.of("a.md", "1")).json().path("checksum").textValue();

    Reply reply = changes(repo, checksum, 1).send();

    reply.expectStatus(304);
    assertThat(reply.body().size()).isZero();
  }

  @Test
  void aWriteDuringTheWaitAnswersTheNewState() throws Exception {
    String repo = server.newRepository();
    String checksum = server.write(repo, Map.of("a.md", "1")).json().path("checksum").textValue();

    CompletableFuture<Reply> waiting =
        CompletableFuture.supplyAsync(() -> changes(repo, checksum, 30).send());
    String written =
        server.put(repo, Map.of("a.md", "2")).expectStatus(200).json().path("checksum").textValue();

    Reply reply = waiting.get(90, TimeUnit.SECONDS).expectStatus(200);
    assertThat(reply.json().path("checksum").textValue()).isEqualTo(written);
  }

  @Test
  void theChangeFeedNeedsReadAccess() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    changes(repo, Checksums.EMPTY, 0).as(Caller.READER).send().expectStatus(200);
    changes(repo, Checksums.EMPTY, 0)
        .as(Caller.OUTSIDER)
        .send()
        .expectError(404, ErrorCodes.NOT_FOUND);
    changes(repo, Checksums.EMPTY, 0)
        .as(Caller.ANONYMOUS)
        .send()
        .expectError(401, ErrorCodes.UNAUTHORIZED);
  }

  @Test
  void aWaitThatIsNotANumberIs400() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    server
        .call("GET", CHANGES_PATH)
        .query("repo", repo)
        .query("since", Checksums.EMPTY)
        .query("wait", "soon")
        .send()
        .expectError(400, ErrorCodes.INVALID_PARAMETER);
  }

  @Test
  void afterVersionAnswersTheKeysWrittenSinceThatVersionAtOnce() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1", "b.md", "2", "c.md", "3"));
    server.put(repo, Map.of("b.md", "two")).expectStatus(200);
    server.memory("DELETE", repo).query("key", "c.md").send().expectStatus(200);

    Reply reply = changesAfter(repo, 1, 30).send().expectStatus(200);

    JsonNode body = reply.json();
    assertThat(body.path("version").longValue()).isEqualTo(3);
    assertThat(body.path("checksum").textValue())
        .isEqualTo(WireAssertions.repositoryChecksumOf(Map.of("a.md", "1", "b.md", "two")));
    assertThat(Reply.strings(body.path("changed")))
        .isEqualTo(Map.of("b.md", Checksums.ofContent("two")));
    assertThat(Reply.strings(body.path("deleted")))
        .isEqualTo(Map.of("c.md", Checksums.ofContent("3")));
    assertThat(body.has("reset")).as("no reset: " + body).isFalse();
    WireAssertions.assertEtagOf(reply, body.path("checksum").textValue());
  }

  @Test
  void afterVersionZeroNamesEveryKey() {
    String repo = server.newRepository();
    Map<String, String> entries = Map.of("a.md", "1", "dir/b.md", "2");
    server.write(repo, entries);

    JsonNode body = changesAfter(repo, 0, 0).send().expectStatus(200).json();

    assertThat(Reply.strings(body.path("changed"))).isEqualTo(WireAssertions.checksumsOf(entries));
    assertThat(Reply.strings(body.path("deleted"))).isEmpty();
  }

  @Test
  void afterTheCurrentVersionAnswers304AfterTheWait() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    Reply reply = changesAfter(repo, 1, 1).send();

    reply.expectStatus(304);
    assertThat(reply.body().size()).isZero();
  }

  @Test
  void aWriteDuringAnAfterVersionWaitAnswersItsKeys() throws Exception {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1", "b.md", "2"));

    CompletableFuture<Reply> waiting =
        CompletableFuture.supplyAsync(() -> changesAfter(repo, 1, 30).send());
    server.put(repo, Map.of("b.md", "3")).expectStatus(200);

    JsonNode body = waiting.get(90, TimeUnit.SECONDS).expectStatus(200).json();
    assertThat(body.path("version").longValue()).isEqualTo(2);
    assertThat(Reply.strings(body.path("changed")))
        .isEqualTo(Map.of("b.md", Checksums.ofContent("3")));
  }

  @Test
  void aVersionBeyondTheRepositorysIsAResetAtOnce() {
    String repo = server.newRepository();
    String checksum = server.write(repo, Map.of("a.md", "1")).json().path("checksum").textValue();

    JsonNode body = changesAfter(repo, 99, 30).send().expectStatus(200).json();

    assertThat(body.path("reset").booleanValue()).as("reset: " + body).isTrue();
    assertThat(body.path("version").longValue()).isEqualTo(1);
    assertThat(body.path("checksum").textValue()).isEqualTo(checksum);
    assertThat(body.has("changed")).as("a reset names no keys: " + body).isFalse();
  }

  @Test
  void afterVersionMustBeAWholeNumberAndNotBesideSince() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    for (String bad : new String[] {"-1", "one", "1.5", ""}) {
      server
          .call("GET", CHANGES_PATH)
          .query("repo", repo)
          .query("after_version", bad)
          .query("wait", "0")
          .send()
          .expectError(400, ErrorCodes.INVALID_PARAMETER);
    }
    changesAfter(repo, 0, 0)
        .query("since", Checksums.EMPTY)
        .send()
        .expectError(400, ErrorCodes.INVALID_PARAMETER);
    changesAfter(repo, 0, 0).as(Caller.OUTSIDER).send().expectError(404, ErrorCodes.NOT_FOUND);
  }

  private static ProtocolServer.HttpCall changesAfter(
      String repo, long afterVersion, int waitSeconds) {
    return server
        .call("GET", CHANGES_PATH)
        .query("repo", repo)
        .query("after_version", Long.toString(afterVersion))
        .query("wait", Integer.toString(waitSeconds));
  }

  private static ProtocolServer.HttpCall changes(String repo, String since, int waitSeconds) {
    return server
        .call("GET", CHANGES_PATH)
        .query("repo", repo)
        .query("since", since)
        .query("wait", Integer.toString(waitSeconds));
  }
}
