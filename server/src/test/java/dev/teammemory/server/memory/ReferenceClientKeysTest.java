package dev.teammemory.server.memory;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.fresh;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The reference client (Claude Code 2.1.88) sends all-or-nothing batches: one key the server newly
 * refused would fail a whole sync. So every kind of key {@code team_memory} took before the one
 * text rule still lands, in one batch shaped like the client's, even those a file system may merge
 * (the daemon's to handle) and those the Memory Stores API refuses.
 */
@QuarkusTest
class ReferenceClientKeysTest {

  /** Keys of every kind the protocol's key rules accept, unusual ones first. */
  private static final List<String> KEYS_ACCEPTED_BEFORE =
      List.of(
          "rtl\u202Eevil.md",
          "zero\u200Bwidth.md",
          "caf\u00e9.md",
          "cafe\u0301.md",
          "Case.md",
          "case.md",
          "notes",
          "notes/x.md",
          "d/".repeat(24) + "deep.md",
          "100%.md",
          "notes/%zz.md",
          "with space.md",
          "a..b.md",
          "emoji \uD83D\uDE80.md",
          "MEMORY.md");

  @Test
  void aBatchShapedLikeTheReferenceClientsCarryingEveryKindOfKeyAcceptedBeforeLands() {
    String repo = fresh("reference-batch");
    Map<String, String> entries = new LinkedHashMap<>();
    for (int topic = 0; topic < 120; topic++) {
      entries.put("topics/topic-" + topic + ".md", "# Topic " + topic + "\n\nA note.\n");
    }
    KEYS_ACCEPTED_BEFORE.forEach(key -> entries.put(key, "content of " + key + "\n"));

    as(WRITER)
        .queryParam("repo", repo)
        .body(Map.of("entries", entries))
        .put(PATH)
        .then()
        .statusCode(200);

    JsonPath stored =
        as(WRITER).queryParam("repo", repo).get(PATH).then().statusCode(200).extract().jsonPath();
    Map<String, String> kept = stored.getMap("content.entries");
    assertThat(kept).containsExactlyInAnyOrderEntriesOf(entries);
  }
}
