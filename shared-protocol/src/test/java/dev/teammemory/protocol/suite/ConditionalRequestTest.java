package dev.teammemory.protocol.suite;

import static dev.teammemory.protocol.suite.WireAssertions.QUOTED_CHECKSUM;
import static dev.teammemory.protocol.suite.WireAssertions.assertVersion;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ErrorCodes;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code ETag}, {@code If-None-Match} and {@code If-Match} (PROTOCOL.md "Conditional headers"):
 * quotes and a {@code W/} are stripped before comparing, {@code If-None-Match} takes a list, the
 * ETag is always quoted, and a stale {@code If-Match} writes nothing.
 */
class ConditionalRequestTest {

  private static final String STALE = Checksums.ofContent("a state this repository never had");

  private static ProtocolServer server;

  @BeforeAll
  static void connect() {
    server = ProtocolServer.shared();
  }

  /** The ways a client may spell the current checksum in a conditional header. */
  static Stream<Named<Function<String, String>>> spellingsOfTheCurrentChecksum() {
    return Stream.of(
        Named.of("quoted", checksum -> '"' + checksum + '"'),
        Named.of("unquoted", checksum -> checksum),
        Named.of("weak", checksum -> "W/\"" + checksum + '"'));
  }

  @ParameterizedTest
  @MethodSource("spellingsOfTheCurrentChecksum")
  void ifNoneMatchWithTheCurrentChecksumIs304WithoutBody(Function<String, String> spelling) {
    String repo = server.newRepository();
    String checksum = written(repo);

    Reply reply =
        server.memory("GET", repo).header("If-None-Match", spelling.apply(checksum)).send();

    reply.expectStatus(304);
    assertThat(reply.body().size()).as("a 304 has no body").isZero();
  }

  @Test
  void ifNoneMatchListingTheCurrentChecksumAmongOthersIs304() {
    String repo = server.newRepository();
    String checksum = written(repo);

    server
        .memory("GET", repo)
        .header("If-None-Match", "\"" + STALE + "\", \"" + checksum + "\", W/\"" + STALE + "\"")
        .send()
        .expectStatus(304);
  }

  @Test
  void ifNoneMatchListingOnlyOtherChecksumsAnswersTheRepository() {
    String repo = server.newRepository();
    String checksum = written(repo);

    Reply reply =
        server
            .memory("GET", repo)
            .header("If-None-Match", "\"" + STALE + "\", \"" + Checksums.EMPTY + "\"")
            .send()
            .expectStatus(200);

    assertThat(reply.json().path("checksum").textValue()).isEqualTo(checksum);
  }

  @Test
  void ifNoneMatchWithAStaleChecksumAnswersTheRepository() {
    String repo = server.newRepository();
    String checksum = written(repo);

    Reply reply = server.memory("GET", repo).header("If-None-Match", '"' + STALE + '"').send();

    assertThat(reply.expectStatus(200).json().path("checksum").textValue()).isEqualTo(checksum);
  }

  @ParameterizedTest
  @MethodSource("spellingsOfTheCurrentChecksum")
  void ifMatchWithTheCurrentChecksumApplies(Function<String, String> spelling) {
    String repo = server.newRepository();
    String checksum = written(repo);

    Reply reply = server.putIfMatch(repo, Map.of("b.md", "2"), spelling.apply(checksum));

    assertVersion(reply.expectStatus(200).json().path("version"), 2);
  }

  @Test
  void ifMatchWithAStaleChecksumIs412AndWritesNothing() {
    String repo = server.newRepository();
    written(repo);
    ProtocolServer.RepositoryState before = server.state(repo);

    server
        .putIfMatch(repo, Map.of("a.md", "overwritten", "new.md", "new"), '"' + STALE + '"')
        .expectError(412, ErrorCodes.PRECONDITION_FAILED);

    assertThat(server.state(repo)).isEqualTo(before);
  }

  @Test
  void anEmptyPutWithAStaleIfMatchIs412() {
    String repo = server.newRepository();
    written(repo);

    server
        .memory("PUT", repo)
        .header("If-Match", '"' + STALE + '"')
        .json("{\"entries\":{}}")
        .send()
        .expectError(412, ErrorCodes.PRECONDITION_FAILED);
  }

  @Test
  void ifMatchStarAppliesToAnExistingRepository() {
    String repo = server.newRepository();
    written(repo);

    assertVersion(
        server.putIfMatch(repo, Map.of("b.md", "2"), "*").expectStatus(200).json().path("version"),
        2);
  }

  @Test
  void ifMatchStarOnANeverWrittenRepositoryIs412AndItStaysNeverWritten() {
    String repo = server.newRepository();

    server
        .putIfMatch(repo, Map.of("a.md", "1"), "*")
        .expectError(412, ErrorCodes.PRECONDITION_FAILED);

    server.get(repo).expectError(404, ErrorCodes.NOT_FOUND);
  }

  @Test
  void ifMatchWithTheEmptyChecksumAppliesToANeverWrittenRepository() {
    String repo = server.newRepository();

    Reply reply = server.putIfMatch(repo, Map.of("a.md", "1"), '"' + Checksums.EMPTY + '"');

    assertVersion(reply.expectStatus(200).json().path("version"), 1);
  }

  @Test
  void ifMatchWithAnyOtherChecksumOnANeverWrittenRepositoryIs412() {
    String repo = server.newRepository();

    server
        .putIfMatch(repo, Map.of("a.md", "1"), '"' + STALE + '"')
        .expectError(412, ErrorCodes.PRECONDITION_FAILED);

    server.get(repo).expectError(404, ErrorCodes.NOT_FOUND);
  }

  @Test
  void ifMatchWithTheEmptyChecksumOnAWrittenRepositoryIs412() {
    String repo = server.newRepository();
    written(repo);
    ProtocolServer.RepositoryState before = server.state(repo);

    server
        .putIfMatch(repo, Map.of("a.md", "2"), '"' + Checksums.EMPTY + '"')
        .expectError(412, ErrorCodes.PRECONDITION_FAILED);

    assertThat(server.state(repo)).isEqualTo(before);
  }

  @Test
  void aPutWithoutIfMatchAppliesWhateverTheRepositoryHolds() {
    String repo = server.newRepository();
    written(repo);
    server.put(repo, Map.of("b.md", "someone else's write")).expectStatus(200);

    Reply reply = server.put(repo, Map.of("a.md", "mine")).expectStatus(200);

    assertVersion(reply.json().path("version"), 3);
  }

  @Test
  void batchesChainedOnTheBodyChecksumAllApply() {
    String repo = server.newRepository();
    String checksum = Checksums.EMPTY;

    for (int batch = 1; batch <= 4; batch++) {
      Reply reply =
          server
              .putIfMatch(
                  repo, Map.of("batch-" + batch + ".md", "content " + batch), '"' + checksum + '"')
              .expectStatus(200);
      assertVersion(reply.json().path("version"), batch);
      checksum = reply.json().path("checksum").textValue();
    }

    assertThat(server.hashes(repo).json().path("checksum").textValue()).isEqualTo(checksum);
  }

  @Test
  void theEtagIsAlwaysQuoted() {
    String repo = server.newRepository();

    Reply put = server.put(repo, Map.of("a.md", "1")).expectStatus(200);
    Reply get = server.get(repo).expectStatus(200);
    Reply hashes = server.hashes(repo).expectStatus(200);
    Reply empty = server.memory("PUT", server.newRepository()).json("{\"entries\":{}}").send();

    assertThat(put.header("ETag")).matches(QUOTED_CHECKSUM);
    assertThat(get.header("ETag")).matches(QUOTED_CHECKSUM);
    assertThat(hashes.header("ETag")).matches(QUOTED_CHECKSUM);
    assertThat(empty.expectStatus(200).header("ETag")).isEqualTo('"' + Checksums.EMPTY + '"');
  }

  /** Writes one entry and answers the repository's checksum. */
  private static String written(String repo) {
    return server
        .put(repo, Map.of("a.md", "1"))
        .expectStatus(200)
        .json()
        .path("checksum")
        .textValue();
  }
}
