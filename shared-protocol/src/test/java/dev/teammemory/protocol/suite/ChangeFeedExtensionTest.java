package dev.teammemory.protocol.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.suite.ProtocolServer.Caller;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The long-poll change feed (PROTOCOL.md "Extensions", "Change feed"). */
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

  private static ProtocolServer.HttpCall changes(String repo, String since, int waitSeconds) {
    return server
        .call("GET", CHANGES_PATH)
        .query("repo", repo)
        .query("since", since)
        .query("wait", Integer.toString(waitSeconds));
  }
}
