package dev.teammemory.protocol.suite;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.suite.ProtocolServer.Caller;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bearer tokens and access (PROTOCOL.md "Authentication and authorisation"): no or a bad token is
 * {@code 401}; a repository the caller cannot see is {@code 404}, never {@code 403}, so its
 * existence does not leak; a reader can read but not write ({@code 403}).
 */
class AuthorizationTest {

  private static ProtocolServer server;

  @BeforeAll
  static void connect() {
    server = ProtocolServer.shared();
  }

  @ParameterizedTest
  @EnumSource(
      value = Caller.class,
      names = {"ANONYMOUS", "UNKNOWN_TOKEN"})
  void withoutAValidTokenEveryRequestIs401(Caller caller) {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));
    ProtocolServer.RepositoryState before = server.state(repo);

    server.memory("GET", repo).as(caller).send().expectError(401, ErrorCodes.UNAUTHORIZED);
    server
        .memory("GET", repo)
        .query("view", "hashes")
        .as(caller)
        .send()
        .expectError(401, ErrorCodes.UNAUTHORIZED);
    server
        .memory("PUT", repo)
        .as(caller)
        .json("{\"entries\":{\"a.md\":\"2\"}}")
        .send()
        .expectError(401, ErrorCodes.UNAUTHORIZED);

    assertThat(server.state(repo)).isEqualTo(before);
  }

  @Test
  void aTokenInAnotherSchemeIs401() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    server
        .memory("GET", repo)
        .as(Caller.ANONYMOUS)
        .header(
            "Authorization",
            "Basic "
                + Base64.getEncoder()
                    .encodeToString(("user:" + server.config().writerToken()).getBytes(UTF_8)))
        .send()
        .expectError(401, ErrorCodes.UNAUTHORIZED);
  }

  @Test
  void theTokenIsCheckedBeforeTheRepo() {
    server
        .memory("GET", "not-a-slug")
        .as(Caller.ANONYMOUS)
        .send()
        .expectError(401, ErrorCodes.UNAUTHORIZED);
  }

  @Test
  void anOutsiderSeesAnExistingRepositoryAsNotFound() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));
    ProtocolServer.RepositoryState before = server.state(repo);

    server.memory("GET", repo).as(Caller.OUTSIDER).send().expectError(404, ErrorCodes.NOT_FOUND);
    server
        .memory("GET", repo)
        .query("view", "hashes")
        .as(Caller.OUTSIDER)
        .send()
        .expectError(404, ErrorCodes.NOT_FOUND);
    server
        .memory("PUT", repo)
        .as(Caller.OUTSIDER)
        .json("{\"entries\":{\"a.md\":\"2\"}}")
        .send()
        .expectError(404, ErrorCodes.NOT_FOUND);

    assertThat(server.state(repo)).isEqualTo(before);
  }

  @Test
  void anOutsiderCannotTellAnExistingRepositoryFromAMissingOne() {
    String existing = server.newRepository();
    server.write(existing, Map.of("a.md", "1"));
    String missing = server.newRepository();

    Reply onExisting = server.memory("GET", existing).as(Caller.OUTSIDER).send();
    Reply onMissing = server.memory("GET", missing).as(Caller.OUTSIDER).send();

    onExisting.expectError(404, ErrorCodes.NOT_FOUND);
    onMissing.expectError(404, ErrorCodes.NOT_FOUND);
    String existingMessage = onExisting.json().path("error").path("message").textValue();
    String missingMessage = onMissing.json().path("error").path("message").textValue();
    assertThat(existingMessage.replace(existing, "<repo>"))
        .isEqualTo(missingMessage.replace(missing, "<repo>"));
  }

  @Test
  void anOutsiderPuttingIntoANeverWrittenRepositoryIs404AndCreatesNothing() {
    String repo = server.newRepository();

    server
        .memory("PUT", repo)
        .as(Caller.OUTSIDER)
        .json("{\"entries\":{\"a.md\":\"1\"}}")
        .send()
        .expectError(404, ErrorCodes.NOT_FOUND);

    server.get(repo).expectError(404, ErrorCodes.NOT_FOUND);
  }

  @Test
  void aReaderCanReadTheRepositoryAndItsHashes() {
    String repo = server.newRepository();
    Reply written = server.write(repo, Map.of("a.md", "1"));

    Reply full = server.memory("GET", repo).as(Caller.READER).send().expectStatus(200);
    Reply hashes = server.memory("GET", repo).query("view", "hashes").as(Caller.READER).send();

    String checksum = written.json().path("checksum").textValue();
    assertThat(full.json().path("checksum").textValue()).isEqualTo(checksum);
    assertThat(hashes.expectStatus(200).json().path("checksum").textValue()).isEqualTo(checksum);
  }

  @Test
  void aReaderPuttingIs403AndWritesNothing() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));
    ProtocolServer.RepositoryState before = server.state(repo);

    server
        .memory("PUT", repo)
        .as(Caller.READER)
        .json("{\"entries\":{\"a.md\":\"2\"}}")
        .send()
        .expectError(403, ErrorCodes.FORBIDDEN);

    assertThat(server.state(repo)).isEqualTo(before);
  }

  @Test
  void aReaderPuttingIntoANeverWrittenRepositoryIs403AndCreatesNothing() {
    String repo = server.newRepository();

    server
        .memory("PUT", repo)
        .as(Caller.READER)
        .json("{\"entries\":{\"a.md\":\"1\"}}")
        .send()
        .expectError(403, ErrorCodes.FORBIDDEN);

    server.get(repo).expectError(404, ErrorCodes.NOT_FOUND);
  }

  @Test
  void aReaderSeesANeverWrittenRepositoryAsNotFoundLikeAWriter() {
    String repo = server.newRepository();

    server.memory("GET", repo).as(Caller.READER).send().expectError(404, ErrorCodes.NOT_FOUND);
  }

  @Test
  void accessIsDecidedBeforeTheBodyIsLookedAt() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    // An outsider learns nothing from a bad body, and a reader is told it cannot write.
    server
        .memory("PUT", repo)
        .as(Caller.OUTSIDER)
        .body("not json".getBytes(), "text/plain")
        .send()
        .expectError(404, ErrorCodes.NOT_FOUND);
    server
        .memory("PUT", repo)
        .as(Caller.READER)
        .body("not json".getBytes(), "text/plain")
        .send()
        .expectError(403, ErrorCodes.FORBIDDEN);
  }
}
