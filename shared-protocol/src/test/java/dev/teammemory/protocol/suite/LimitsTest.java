package dev.teammemory.protocol.suite;

import static dev.teammemory.protocol.suite.WireAssertions.assertVersion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.BatchPlanner;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ProtocolJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The limits and their exact errors (PROTOCOL.md "Limits and their errors"). Sizes come from the
 * suite's configuration, so the same tests check a server configured with other limits.
 */
class LimitsTest {

  private static ProtocolServer server;
  private static SuiteConfig config;

  @BeforeAll
  static void connect() {
    server = ProtocolServer.shared();
    config = server.config();
  }

  @Test
  void anEntryOfExactlyTheMaximumSizeIsAccepted() {
    String repo = server.newRepository();
    String content = "x".repeat(config.maxEntryBytes());

    server.put(repo, Map.of("big.md", content)).expectStatus(200);

    assertThat(Reply.strings(server.get(repo).json().path("content").path("entries")))
        .containsEntry("big.md", content);
  }

  @Test
  void anEntryOneByteOverTheMaximumIs413NamingTheKeyAndNothingIsWritten() {
    String repo = server.newRepository();

    JsonNode error =
        server
            .put(repo, Map.of("ok.md", "fine", "big.md", "x".repeat(config.maxEntryBytes() + 1)))
            .expectError(413, ErrorCodes.ENTRY_TOO_LARGE);

    assertThat(error.path("details").path("key").textValue()).isEqualTo("big.md");
    server.get(repo).expectError(404, ErrorCodes.NOT_FOUND);
  }

  @Test
  void theEntryLimitCountsUtf8BytesNotCharacters() {
    String repo = server.newRepository();
    // Two bytes per character: fewer characters than the limit, more bytes.
    String accents = "\u00e9".repeat(config.maxEntryBytes() / 2 + 1);

    JsonNode error =
        server
            .put(repo, Map.of("accents.md", accents))
            .expectError(413, ErrorCodes.ENTRY_TOO_LARGE);

    assertThat(error.path("details").path("key").textValue()).isEqualTo("accents.md");
  }

  @Test
  void oneEntryOverTheCapIs413WithExactlyTheEntryCapBodyAndNothingIsWritten() {
    String repo = server.newRepository();
    Map<String, String> entries = numberedEntries("entry", config.maxEntries() + 1);
    byte[] body = BatchPlanner.body(entries);
    assumeTrue(body.length <= config.maxBodyBytes(), "an over-cap PUT must fit in one body");

    Reply reply = server.memory("PUT", repo).json(body).send().expectStatus(413);

    JsonNode expected = tooManyEntries(config.maxEntries(), config.maxEntries() + 1);
    assertThat(reply.header("Content-Type")).startsWith("application/json");
    assertThat(reply.json()).as("the entry-cap body, with no message").isEqualTo(expected);
    server.get(repo).expectError(404, ErrorCodes.NOT_FOUND);
  }

  @Test
  void theEntryCapIsCountedAfterTheMerge() {
    String repo = server.newRepository();
    Map<String, String> existing = numberedEntries("entry", config.maxEntries() - 1);
    server.write(repo, existing);

    // Replacing one and adding one reaches the cap exactly.
    String first = existing.keySet().iterator().next();
    server.put(repo, Map.of(first, "replaced", "new-1.md", "new")).expectStatus(200);
    ProtocolServer.RepositoryState full = server.state(repo);

    Reply over = server.put(repo, Map.of("new-2.md", "one too many", first, "again"));

    assertThat(over.expectStatus(413).json())
        .isEqualTo(tooManyEntries(config.maxEntries(), config.maxEntries() + 1));
    assertThat(server.state(repo)).isEqualTo(full);
    server.put(repo, Map.of(first, "replacing at the cap is fine")).expectStatus(200);
  }

  @Test
  void aBodyOfExactlyTheMaximumSizeIsAccepted() {
    assumeTrue(
        config.maxRepositoryBytes() >= config.maxBodyBytes(),
        "the repository limit must hold a full body");
    String repo = server.newRepository();
    Map<String, String> entries = entriesFillingABodyOf(config.maxBodyBytes());
    assumeTrue(entries.size() <= config.maxEntries(), "a full body must stay under the entry cap");
    byte[] body = BatchPlanner.body(entries);
    assertThat(body).hasSize(config.maxBodyBytes());

    server.memory("PUT", repo).json(body).send().expectStatus(200);
  }

  @Test
  void aBodyOneByteOverTheMaximumIs413RequestTooLargeAndNothingIsWritten() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));
    ProtocolServer.RepositoryState before = server.state(repo);
    byte[] body = BatchPlanner.body(entriesFillingABodyOf(config.maxBodyBytes() + 1L));
    assertThat(body).hasSize(config.maxBodyBytes() + 1);

    server.memory("PUT", repo).json(body).send().expectError(413, ErrorCodes.REQUEST_TOO_LARGE);

    assertThat(server.state(repo)).isEqualTo(before);
  }

  @Test
  void aLegalEntryWithHeavyJsonEscapingStillFitsInABody() {
    // Every quote and backslash doubles on the wire: the protocol sizes the body limit for this.
    String escaped = "\"\\".repeat(config.maxEntryBytes() / 2);
    byte[] body = BatchPlanner.body(Map.of("quotes.md", escaped));
    assumeTrue(body.length <= config.maxBodyBytes(), "the body limit is below twice an entry");
    String repo = server.newRepository();

    server.memory("PUT", repo).json(body).send().expectStatus(200);

    assertThat(Reply.strings(server.get(repo).json().path("content").path("entries")))
        .containsEntry("quotes.md", escaped);
  }

  @Test
  void theRepositorySizeLimitIsCountedAfterTheMerge() {
    int entrySize = config.maxEntryBytes();
    long total = config.maxRepositoryBytes();
    int fullEntries = (int) (total / entrySize);
    int remainder = (int) (total % entrySize);
    assumeTrue(
        fullEntries + 2 <= config.maxEntries(),
        "the repository limit must be reachable under the entry cap");
    Map<String, String> entries = new TreeMap<>();
    for (int index = 0; index < fullEntries; index++) {
      entries.put("fill-%05d.md".formatted(index), "x".repeat(entrySize));
    }
    if (remainder > 0) {
      entries.put("fill-rest.md", "x".repeat(remainder));
    }
    String repo = server.newRepository();
    for (Map<String, String> batch : BatchPlanner.plan(entries, config.maxBodyBytes())) {
      server.put(repo, batch).expectStatus(200);
    }
    ProtocolServer.RepositoryState full = server.state(repo);

    server.put(repo, Map.of("one-more.md", "x")).expectError(413, ErrorCodes.REPOSITORY_TOO_LARGE);
    assertThat(server.state(repo)).isEqualTo(full);

    // Replacing an entry by one of the same size keeps the total, and so does shrinking one by as
    // much as a new entry adds: both are accepted.
    String first = entries.keySet().iterator().next();
    int batches = BatchPlanner.plan(entries, config.maxBodyBytes()).size();
    Reply replaced = server.put(repo, Map.of(first, "y".repeat(entrySize))).expectStatus(200);
    assertVersion(replaced.json().path("version"), batches + 1);
    Reply merged = server.put(repo, Map.of(first, "z".repeat(entrySize - 1), "one-more.md", "x"));
    assertVersion(merged.expectStatus(200).json().path("version"), batches + 2);
  }

  /** {@code count} small entries with keys that sort in creation order. */
  static Map<String, String> numberedEntries(String prefix, int count) {
    Map<String, String> entries = new TreeMap<>();
    for (int index = 0; index < count; index++) {
      entries.put("%s-%06d.md".formatted(prefix, index), "content " + index);
    }
    return entries;
  }

  /**
   * ASCII entries whose PUT body is exactly {@code size} bytes, each no larger than the entry
   * limit: {@code {"entries":{"part-000.md":"xx…","part-001.md":"xx…"}}}.
   */
  private static Map<String, String> entriesFillingABodyOf(long size) {
    int perEntry = "\"part-000.md\":\"\"".length();
    int count = 1;
    while (14 + (long) count * (perEntry + config.maxEntryBytes()) + (count - 1) < size) {
      count++;
    }
    long content = size - 14 - (long) count * perEntry - (count - 1);
    Map<String, String> entries = new TreeMap<>();
    for (int index = 0; index < count; index++) {
      long share = content / count + (index < content % count ? 1 : 0);
      entries.put("part-%03d.md".formatted(index), "x".repeat((int) share));
    }
    return entries;
  }

  private static JsonNode tooManyEntries(int max, int received) {
    try {
      return ProtocolJson.mapper()
          .readTree(
              "{\"error\":{\"details\":{\"error_code\":\"team_memory_too_many_entries\","
                  + "\"max_entries\":%d,\"received_entries\":%d}}}".formatted(max, received));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
