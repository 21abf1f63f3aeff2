package dev.teammemory.protocol.suite;

import static dev.teammemory.protocol.suite.WireAssertions.assertChecksum;
import static dev.teammemory.protocol.suite.WireAssertions.assertEtagOf;
import static dev.teammemory.protocol.suite.WireAssertions.assertIsoMillis;
import static dev.teammemory.protocol.suite.WireAssertions.assertVersion;
import static dev.teammemory.protocol.suite.WireAssertions.checksumsOf;
import static dev.teammemory.protocol.suite.WireAssertions.repositoryChecksumOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.ErrorCodes;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The shapes of the GET, hashes and PUT bodies, and their headers (PROTOCOL.md "GET", "PUT"). */
class ResponseShapeTest {

  private static ProtocolServer server;

  @BeforeAll
  static void connect() {
    server = ProtocolServer.shared();
  }

  @Test
  void getAnswersAllSixFieldsWithTheirTypes() {
    String repo = server.newRepository();
    server.write(repo, Map.of("MEMORY.md", "# Team memory\n", "testing/no-mocks.md", "No mocks."));

    Reply reply = server.get(repo).expectStatus(200);

    JsonNode body = reply.json();
    assertThat(body.path("organizationId").isTextual()).as("organizationId is a string").isTrue();
    assertThat(body.path("repo").textValue()).isEqualTo(repo);
    assertVersion(body.path("version"), 1);
    assertIsoMillis(body.path("lastModified"), "lastModified");
    assertChecksum(body.path("checksum"), "checksum");
    assertThat(body.path("content").isObject()).as("content is an object").isTrue();
    assertThat(body.path("content").path("entries").isObject()).as("entries").isTrue();
    assertThat(body.path("content").path("entryChecksums").isObject())
        .as("entryChecksums")
        .isTrue();
  }

  @Test
  void organizationIdIsTheOwnerUnlessTheDeploymentNamesAnOrganisation() {
    String repo = server.newRepository();
    server.write(repo, Map.of("MEMORY.md", "x"));

    assertThat(server.get(repo).expectStatus(200).json().path("organizationId").textValue())
        .isEqualTo(server.config().organizationId());
  }

  @Test
  void getAnswersTheEntriesWithTheirChecksumsAndTheRepositoryChecksum() {
    String repo = server.newRepository();
    Map<String, String> entries =
        Map.of("MEMORY.md", "# Team memory\n", "testing/no-mocks.md", "Use real servers.\n");
    server.write(repo, entries);

    JsonNode body = server.get(repo).expectStatus(200).json();

    Map<String, String> entryChecksums = Reply.strings(body.path("content").path("entryChecksums"));
    assertThat(Reply.strings(body.path("content").path("entries"))).isEqualTo(entries);
    assertThat(entryChecksums).isEqualTo(checksumsOf(entries));
    assertThat(body.path("checksum").textValue()).isEqualTo(repositoryChecksumOf(entries));
  }

  @Test
  void getAnswersJsonWithTheQuotedChecksumAsEtag() {
    String repo = server.newRepository();
    server.write(repo, Map.of("MEMORY.md", "x"));

    Reply reply = server.get(repo).expectStatus(200);

    assertThat(reply.header("Content-Type")).startsWith("application/json");
    assertEtagOf(reply, reply.json().path("checksum").textValue());
  }

  @Test
  void hashesViewAnswersVersionChecksumAndEntryChecksumsWithoutEntryBodies() {
    String repo = server.newRepository();
    Map<String, String> entries = Map.of("a.md", "alpha", "b/c.md", "gamma");
    server.write(repo, entries);

    Reply reply = server.hashes(repo).expectStatus(200);

    JsonNode body = reply.json();
    assertVersion(body.path("version"), 1);
    assertThat(body.path("checksum").textValue()).isEqualTo(repositoryChecksumOf(entries));
    assertThat(Reply.strings(body.path("entryChecksums"))).isEqualTo(checksumsOf(entries));
    assertThat(body.has("content")).as("the hashes view carries no content").isFalse();
    assertThat(body.has("entries")).as("the hashes view carries no entries").isFalse();
    assertThat(reply.text()).doesNotContain("alpha").doesNotContain("gamma");
    assertEtagOf(reply, body.path("checksum").textValue());
  }

  @Test
  void putAnswersTheNewStateWithTheChecksumsOfOnlyItsOwnKeys() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1", "b.md", "2"));

    Reply reply = server.put(repo, Map.of("b.md", "two", "c.md", "3")).expectStatus(200);

    JsonNode body = reply.json();
    Map<String, String> all = Map.of("a.md", "1", "b.md", "two", "c.md", "3");
    assertVersion(body.path("version"), 2);
    assertThat(body.path("checksum").textValue()).isEqualTo(repositoryChecksumOf(all));
    assertIsoMillis(body.path("lastModified"), "lastModified");
    assertThat(Reply.strings(body.path("entryChecksums")))
        .isEqualTo(checksumsOf(Map.of("b.md", "two", "c.md", "3")));
    assertThat(reply.header("Content-Type")).startsWith("application/json");
    assertEtagOf(reply, body.path("checksum").textValue());
  }

  @Test
  void theRepoIsAnsweredAsSpelledByItsFirstWrite() {
    String repo = server.config().owner() + "/Suite-MixedCase-" + ProtocolServer.randomHex(6);
    server.write(repo, Map.of("a.md", "1"));

    assertThat(server.get(repo).expectStatus(200).json().path("repo").textValue()).isEqualTo(repo);
  }

  @Test
  void aNeverWrittenRepositoryIsNotFoundOnBothViews() {
    String repo = server.newRepository();

    server.get(repo).expectError(404, ErrorCodes.NOT_FOUND);
    server.hashes(repo).expectError(404, ErrorCodes.NOT_FOUND);
  }

  @Test
  void errorsAreJsonEnvelopesWithAMessageAndACode() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    server.memory("GET", "not-a-slug").send().expectError(400, ErrorCodes.INVALID_REPO);
    server
        .memory("GET", repo)
        .query("view", "everything")
        .send()
        .expectError(400, ErrorCodes.INVALID_VIEW);
    server
        .putIfMatch(repo, Map.of("a.md", "2"), "\"sha256:" + "0".repeat(64) + "\"")
        .expectError(412, ErrorCodes.PRECONDITION_FAILED);
    server.get(repo).expectStatus(200);
  }

  @Test
  void entriesAreAnsweredWithTheirKeysAndContentUnchanged() {
    String repo = server.newRepository();
    Map<String, String> entries = new TreeMap<>();
    entries.put("unicode/caf\u00e9 \u4e2d\u6587.md", "\u00e9\u00e8 \u4e2d\u6587 \uD83D\uDE00\n");
    entries.put("escapes.md", "quote \" backslash \\ tab \t cr \r\n bell \u0007 \u2028\u2029");
    entries.put("empty.md", "");
    entries.put("trailing-space.md", "  spaced  \n\n");
    server.write(repo, entries);

    JsonNode body = server.get(repo).expectStatus(200).json();

    assertThat(Reply.strings(body.path("content").path("entries"))).isEqualTo(entries);
    assertThat(body.path("checksum").textValue()).isEqualTo(repositoryChecksumOf(entries));
  }

  @Test
  void theBetaHeaderIsIgnoredAndAnyUserAgentIsServed() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    server
        .memory("GET", repo)
        .header("anthropic-beta", "some-other-beta-2030-01-01")
        .header("User-Agent", "another-client/9")
        .send()
        .expectStatus(200);
  }

  @Test
  void anUnknownPathIsAJsonNotFoundNotAPage() {
    server
        .call("GET", ProtocolServer.MEMORY_PATH + "/no-such-thing")
        .send()
        .expectError(404, ErrorCodes.NOT_FOUND);
  }

  @Test
  void aMethodTheResourceDoesNotTakeIsAJsonError() {
    String repo = server.newRepository();

    Reply reply = server.memory("POST", repo).json("{\"entries\":{}}").send();

    reply.expectError(405, ErrorCodes.METHOD_NOT_ALLOWED);
    server.get(repo).expectError(404, ErrorCodes.NOT_FOUND);
  }
}
