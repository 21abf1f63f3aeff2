package dev.teammemory.protocol.suite;

import static dev.teammemory.protocol.suite.WireAssertions.assertEtagOf;
import static dev.teammemory.protocol.suite.WireAssertions.assertVersion;
import static dev.teammemory.protocol.suite.WireAssertions.checksumsOf;
import static dev.teammemory.protocol.suite.WireAssertions.repositoryChecksumOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ErrorCodes;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Upsert-merge, versions and checksums (PROTOCOL.md "Checksums", "PUT — upsert-merge"). */
class VersionAndChecksumTest {

  private static ProtocolServer server;

  @BeforeAll
  static void connect() {
    server = ProtocolServer.shared();
  }

  @Test
  void entryChecksumsMatchTheProtocolTestVectors() {
    String repo = server.newRepository();

    Reply reply =
        server
            .put(
                repo, Map.of("empty.md", "", "memory.md", "# Team memory\n", "accent.md", "\u00e9"))
            .expectStatus(200);

    assertThat(Reply.strings(reply.json().path("entryChecksums")))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "empty.md",
                    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                "memory.md",
                    "sha256:2393b496b31a8d584745ed4fc85957f4c3055a36169db110deefeccc43b46cba",
                "accent.md",
                    "sha256:4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c"));
  }

  @Test
  void theRepositoryChecksumIsComputedOverKeysInUtf8ByteOrder() {
    // Byte order puts "B.md" before "a.md", "Z-y.md" before "Z/x.md", U+FF21 before U+1F600:
    // a server sorting by a locale's collation or by UTF-16 units gets a different checksum.
    Map<String, String> entries = new LinkedHashMap<>();
    entries.put("a.md", "lower");
    entries.put("B.md", "upper");
    entries.put("Z/x.md", "slash");
    entries.put("Z-y.md", "dash");
    entries.put("\uFF21.md", "full-width A");
    entries.put("\uD83D\uDE00.md", "emoji");
    entries.put("\u00e9.md", "accent");
    String repo = server.newRepository();

    Reply reply = server.put(repo, entries).expectStatus(200);

    assertThat(reply.json().path("checksum").textValue()).isEqualTo(repositoryChecksumOf(entries));
    assertThat(server.get(repo).json().path("checksum").textValue())
        .isEqualTo(repositoryChecksumOf(entries));
  }

  @Test
  void theFirstPutNeedsNoIfMatchAndStartsAtVersionOne() {
    String repo = server.newRepository();

    Reply reply = server.put(repo, Map.of("MEMORY.md", "first")).expectStatus(200);

    assertVersion(reply.json().path("version"), 1);
    assertVersion(server.get(repo).json().path("version"), 1);
  }

  @Test
  void everyPutThatChangesSomethingAddsOneToTheVersion() {
    String repo = server.newRepository();

    assertVersion(
        server.put(repo, Map.of("a.md", "1")).expectStatus(200).json().path("version"), 1);
    assertVersion(
        server.put(repo, Map.of("b.md", "2")).expectStatus(200).json().path("version"), 2);
    assertVersion(
        server
            .put(repo, Map.of("a.md", "1 again", "b.md", "2 again", "c.md", "3"))
            .expectStatus(200)
            .json()
            .path("version"),
        3);
    assertVersion(server.hashes(repo).json().path("version"), 3);
  }

  @Test
  void aPutThatChangesNothingKeepsTheVersionAndTheChecksum() {
    String repo = server.newRepository();
    Reply first = server.put(repo, Map.of("a.md", "1", "b.md", "2")).expectStatus(200);
    String checksum = first.json().path("checksum").textValue();

    Reply same = server.put(repo, Map.of("a.md", "1", "b.md", "2")).expectStatus(200);

    assertVersion(same.json().path("version"), 1);
    assertThat(same.json().path("checksum").textValue()).isEqualTo(checksum);
    assertEtagOf(same, checksum);
    assertVersion(server.get(repo).json().path("version"), 1);
    assertEtagOf(server.get(repo), checksum);
  }

  @Test
  void aPutChangingOneOfItsKeysAddsExactlyOne() {
    String repo = server.newRepository();
    server.put(repo, Map.of("a.md", "1", "b.md", "2")).expectStatus(200);

    Reply reply = server.put(repo, Map.of("a.md", "1", "b.md", "changed")).expectStatus(200);

    assertVersion(reply.json().path("version"), 2);
  }

  @Test
  void keysNotInThePutAreKept() {
    String repo = server.newRepository();
    server.put(repo, Map.of("a.md", "alpha", "b.md", "beta")).expectStatus(200);

    server.put(repo, Map.of("b.md", "BETA", "c.md", "gamma")).expectStatus(200);

    JsonNode content = server.get(repo).expectStatus(200).json().path("content");
    Map<String, String> expected = Map.of("a.md", "alpha", "b.md", "BETA", "c.md", "gamma");
    assertThat(Reply.strings(content.path("entries"))).isEqualTo(expected);
    assertThat(Reply.strings(content.path("entryChecksums"))).isEqualTo(checksumsOf(expected));
  }

  @Test
  void theChecksumDependsOnlyOnTheEntriesNotOnHowTheyWereWritten() {
    String together = server.newRepository();
    String oneByOne = server.newRepository();
    server.put(together, Map.of("a.md", "1", "b.md", "2", "c.md", "3")).expectStatus(200);
    server.put(oneByOne, Map.of("c.md", "3")).expectStatus(200);
    server.put(oneByOne, Map.of("a.md", "old")).expectStatus(200);
    server.put(oneByOne, Map.of("b.md", "2", "a.md", "1")).expectStatus(200);

    String expected = repositoryChecksumOf(Map.of("a.md", "1", "b.md", "2", "c.md", "3"));
    assertThat(server.hashes(together).json().path("checksum").textValue()).isEqualTo(expected);
    assertThat(server.hashes(oneByOne).json().path("checksum").textValue()).isEqualTo(expected);
  }

  @Test
  void restoringAContentRestoresTheChecksumButNotTheVersion() {
    String repo = server.newRepository();
    String original = server.put(repo, Map.of("a.md", "1")).json().path("checksum").textValue();
    server.put(repo, Map.of("a.md", "2")).expectStatus(200);

    Reply restored = server.put(repo, Map.of("a.md", "1")).expectStatus(200);

    assertThat(restored.json().path("checksum").textValue()).isEqualTo(original);
    assertVersion(restored.json().path("version"), 3);
  }

  @Test
  void anEmptyPutOnANeverWrittenRepositoryIsVersionZeroAndLeavesItNeverWritten() {
    String repo = server.newRepository();

    Reply reply = server.memory("PUT", repo).json("{\"entries\":{}}").send().expectStatus(200);

    assertVersion(reply.json().path("version"), 0);
    assertThat(reply.json().path("checksum").textValue()).isEqualTo(Checksums.EMPTY);
    assertThat(Reply.strings(reply.json().path("entryChecksums"))).isEmpty();
    assertEtagOf(reply, Checksums.EMPTY);
    server.get(repo).expectError(404, ErrorCodes.NOT_FOUND);
    server.hashes(repo).expectError(404, ErrorCodes.NOT_FOUND);
  }

  @Test
  void anEmptyPutOnAWrittenRepositoryAnswersItsCurrentState() {
    String repo = server.newRepository();
    Reply written = server.put(repo, Map.of("a.md", "1")).expectStatus(200);

    Reply reply = server.memory("PUT", repo).json("{\"entries\":{}}").send().expectStatus(200);

    assertVersion(reply.json().path("version"), 1);
    assertThat(reply.json().path("checksum").textValue())
        .isEqualTo(written.json().path("checksum").textValue());
    assertThat(Reply.strings(reply.json().path("entryChecksums"))).isEmpty();
  }

  @Test
  void escapedAndLiteralEncodingsOfTheSameContentAreTheSameEntry() {
    String repo = server.newRepository();
    server.put(repo, Map.of("a.md", "smile \uD83D\uDE00 caf\u00e9")).expectStatus(200);
    String checksum = server.hashes(repo).json().path("checksum").textValue();

    // The same content with every non-ASCII character as a JSON escape, as Jackson may write it.
    Reply reply =
        server
            .memory("PUT", repo)
            .json("{\"entries\":{\"a.md\":\"smile \\uD83D\\uDE00 caf\\u00e9\"}}")
            .send()
            .expectStatus(200);

    assertVersion(reply.json().path("version"), 1);
    assertThat(reply.json().path("checksum").textValue()).isEqualTo(checksum);
  }
}
