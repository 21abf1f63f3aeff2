package dev.teammemory.server.memory;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.hashes;
import static dev.teammemory.server.TestRepositories.put;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.Timestamps;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
class TeamMemoryResourceTest {

  private static final String TEAM_MEMORY = "# Team memory\n";
  private static final String TEAM_MEMORY_CHECKSUM =
      "sha256:2393b496b31a8d584745ed4fc85957f4c3055a36169db110deefeccc43b46cba";

  @Test
  void firstPutCreatesVersionOneWithTheProtocolsChecksums() {
    String repo = fresh("first");

    ExtractableResponse<Response> response = put(repo, entries("MEMORY.md", TEAM_MEMORY));

    String expected = Checksums.ofRepository(Map.of("MEMORY.md", TEAM_MEMORY_CHECKSUM));
    assertThat(response.jsonPath().getLong("version")).isEqualTo(1);
    assertThat(response.jsonPath().getString("checksum")).isEqualTo(expected);
    assertThat(response.jsonPath().getMap("entryChecksums"))
        .isEqualTo(Map.of("MEMORY.md", TEAM_MEMORY_CHECKSUM));
    assertThat(response.header("ETag")).isEqualTo('"' + expected + '"');
    assertThat(Instant.parse(response.jsonPath().getString("lastModified")))
        .isBeforeOrEqualTo(Instant.now());
  }

  @Test
  void getReturnsAllSixFieldsWithTheEntriesAndTheirChecksums() {
    String repo = fresh("get");
    put(repo, entries("MEMORY.md", TEAM_MEMORY, "notes/é.md", "é"));

    ExtractableResponse<Response> response =
        as(READER).queryParam("repo", repo).get(PATH).then().statusCode(200).extract();

    JsonPath body = response.jsonPath();
    assertThat(body.getString("organizationId")).isEqualTo("test-owner");
    assertThat(body.getString("repo")).isEqualTo(repo);
    assertThat(body.getLong("version")).isEqualTo(1);
    assertThat(body.getString("lastModified"))
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
    assertThat(body.getMap("content.entries"))
        .isEqualTo(Map.of("MEMORY.md", TEAM_MEMORY, "notes/é.md", "é"));
    assertThat(body.getMap("content.entryChecksums"))
        .isEqualTo(
            Map.of(
                "MEMORY.md",
                TEAM_MEMORY_CHECKSUM,
                "notes/é.md",
                "sha256:4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c"));
    assertThat(body.getString("checksum"))
        .isEqualTo(Checksums.ofRepository(body.getMap("content.entryChecksums")));
    assertThat(response.header("ETag")).isEqualTo('"' + body.getString("checksum") + '"');
    assertThat(body.getMap("$")).doesNotContainKey("deletedKeys");
  }

  @Test
  void putUpsertMergesAndKeepsKeysNotInTheBody() {
    String repo = fresh("merge");
    put(repo, entries("a.md", "one", "b.md", "two"));

    ExtractableResponse<Response> second = put(repo, entries("b.md", "TWO", "c.md", "three"));

    assertThat(second.jsonPath().getLong("version")).isEqualTo(2);
    assertThat(second.jsonPath().getMap("entryChecksums")).containsOnlyKeys("b.md", "c.md");
    JsonPath body = as(WRITER).queryParam("repo", repo).get(PATH).then().extract().jsonPath();
    assertThat(body.getMap("content.entries"))
        .isEqualTo(Map.of("a.md", "one", "b.md", "TWO", "c.md", "three"));
    assertThat(body.getString("checksum")).isEqualTo(second.jsonPath().getString("checksum"));
  }

  @Test
  void putThatChangesNothingKeepsVersionChecksumAndLastModified() {
    String repo = fresh("unchanged");
    ExtractableResponse<Response> first = put(repo, entries("a.md", "one", "b.md", "two"));

    ExtractableResponse<Response> again = put(repo, entries("a.md", "one"));

    assertThat(again.jsonPath().getLong("version")).isEqualTo(1);
    assertThat(again.jsonPath().getString("checksum"))
        .isEqualTo(first.jsonPath().getString("checksum"));
    assertThat(again.jsonPath().getString("lastModified"))
        .isEqualTo(first.jsonPath().getString("lastModified"));
    assertThat(again.jsonPath().getMap("entryChecksums"))
        .isEqualTo(Map.of("a.md", Checksums.ofContent("one")));
    assertThat(again.header("ETag")).isEqualTo(first.header("ETag"));
  }

  @Test
  void everyPutThatChangesSomethingAddsOneToTheVersion() {
    String repo = fresh("versions");
    for (int i = 1; i <= 5; i++) {
      assertThat(put(repo, entries("k.md", "v" + i)).jsonPath().getLong("version")).isEqualTo(i);
    }
  }

  @Test
  void emptyPutOnNeverWrittenRepositoryReturnsVersionZeroAndCreatesNothing() {
    String repo = fresh("empty");

    JsonPath body = put(repo, Map.of("entries", Map.of())).jsonPath();

    assertThat(body.getLong("version")).isZero();
    assertThat(body.getString("checksum")).isEqualTo(Checksums.EMPTY);
    assertThat(body.getString("lastModified")).isEqualTo(Timestamps.NEVER);
    assertThat(body.getMap("entryChecksums")).isEmpty();
    as(WRITER).queryParam("repo", repo).get(PATH).then().statusCode(404);
  }

  @Test
  void emptyPutOnWrittenRepositoryReturnsTheCurrentState() {
    String repo = fresh("empty-existing");
    JsonPath first = put(repo, entries("a.md", "one")).jsonPath();

    JsonPath body = put(repo, Map.of("entries", Map.of())).jsonPath();

    assertThat(body.getLong("version")).isEqualTo(1);
    assertThat(body.getString("checksum")).isEqualTo(first.getString("checksum"));
    assertThat(body.getMap("entryChecksums")).isEmpty();
  }

  @Test
  void getAndHashesOfNeverWrittenRepositoryReturn404() {
    String repo = fresh("never");
    as(WRITER)
        .queryParam("repo", repo)
        .get(PATH)
        .then()
        .statusCode(404)
        .body("error.details.error_code", org.hamcrest.Matchers.equalTo("not_found"));
    as(WRITER)
        .queryParam("repo", repo)
        .queryParam("view", "hashes")
        .get(PATH)
        .then()
        .statusCode(404);
  }

  @Test
  void hashesViewCarriesVersionChecksumAndEntryChecksumsButNoContent() {
    String repo = fresh("hashes");
    JsonPath written = put(repo, entries("a.md", "one", "b/c.md", "two")).jsonPath();

    ExtractableResponse<Response> response = hashes(repo);

    assertThat(response.jsonPath().getMap("$"))
        .containsOnlyKeys("version", "checksum", "entryChecksums");
    assertThat(response.jsonPath().getLong("version")).isEqualTo(1);
    assertThat(response.jsonPath().getString("checksum")).isEqualTo(written.getString("checksum"));
    assertThat(response.jsonPath().getMap("entryChecksums"))
        .isEqualTo(
            Map.of("a.md", Checksums.ofContent("one"), "b/c.md", Checksums.ofContent("two")));
    assertThat(response.header("ETag")).isEqualTo('"' + written.getString("checksum") + '"');
  }

  @Test
  void ifNoneMatchWithTheCurrentChecksumReturns304InEveryQuotingForm() {
    String repo = fresh("not-modified");
    String checksum = put(repo, entries("a.md", "one")).jsonPath().getString("checksum");

    for (String header :
        new String[] {
          '"' + checksum + '"',
          checksum,
          "W/\"" + checksum + '"',
          "\"sha256:0000\", \"" + checksum + '"'
        }) {
      for (String view : new String[] {null, "hashes"}) {
        var request = as(READER).queryParam("repo", repo).header("If-None-Match", header);
        if (view != null) {
          request = request.queryParam("view", view);
        }
        ExtractableResponse<Response> response = request.get(PATH).then().statusCode(304).extract();
        assertThat(response.body().asString()).isEmpty();
        assertThat(response.header("ETag")).isEqualTo('"' + checksum + '"');
      }
    }
  }

  @Test
  void ifNoneMatchWithAnOutdatedChecksumReturnsTheRepository() {
    String repo = fresh("modified");
    String old = put(repo, entries("a.md", "one")).jsonPath().getString("checksum");
    put(repo, entries("a.md", "two"));

    as(READER)
        .queryParam("repo", repo)
        .header("If-None-Match", '"' + old + '"')
        .get(PATH)
        .then()
        .statusCode(200)
        .body("content.entries.'a.md'", org.hamcrest.Matchers.equalTo("two"));
  }

  @Test
  void putWithStaleIfMatchReturns412AndWritesNothing() {
    String repo = fresh("stale");
    String old = put(repo, entries("a.md", "one")).jsonPath().getString("checksum");
    String current = put(repo, entries("a.md", "two")).jsonPath().getString("checksum");

    as(WRITER)
        .queryParam("repo", repo)
        .header("If-Match", '"' + old + '"')
        .body(entries("a.md", "three", "b.md", "new"))
        .put(PATH)
        .then()
        .statusCode(412)
        .body("error.details.error_code", org.hamcrest.Matchers.equalTo("precondition_failed"))
        .body("error.details.checksum", org.hamcrest.Matchers.equalTo(current));

    JsonPath after = hashes(repo).jsonPath();
    assertThat(after.getLong("version")).isEqualTo(2);
    assertThat(after.getString("checksum")).isEqualTo(current);
    assertThat(after.getMap("entryChecksums")).containsOnlyKeys("a.md");
  }

  @Test
  void putWithTheCurrentChecksumInIfMatchApplies() {
    String repo = fresh("if-match");
    String checksum = put(repo, entries("a.md", "one")).jsonPath().getString("checksum");

    for (String format : new String[] {"\"%s\"", "W/\"%s\""}) {
      String header = format.formatted(checksum);
      String next =
          as(WRITER)
              .queryParam("repo", repo)
              .header("If-Match", header)
              .body(entries("a.md", header))
              .put(PATH)
              .then()
              .statusCode(200)
              .extract()
              .jsonPath()
              .getString("checksum");
      checksum = next;
    }
    assertThat(hashes(repo).jsonPath().getLong("version")).isEqualTo(3);
  }

  @Test
  void ifMatchStarAppliesOnlyToAWrittenRepository() {
    String repo = fresh("star");
    as(WRITER)
        .queryParam("repo", repo)
        .header("If-Match", "*")
        .body(entries("a.md", "one"))
        .put(PATH)
        .then()
        .statusCode(412);
    as(WRITER).queryParam("repo", repo).get(PATH).then().statusCode(404);

    put(repo, entries("a.md", "one"));
    as(WRITER)
        .queryParam("repo", repo)
        .header("If-Match", "*")
        .body(entries("a.md", "two"))
        .put(PATH)
        .then()
        .statusCode(200);
  }

  @Test
  void ifMatchWithTheEmptyChecksumAppliesToANeverWrittenRepositoryOnly() {
    String repo = fresh("empty-if-match");
    as(WRITER)
        .queryParam("repo", repo)
        .header("If-Match", '"' + Checksums.EMPTY + '"')
        .body(entries("a.md", "one"))
        .put(PATH)
        .then()
        .statusCode(200)
        .body("version", org.hamcrest.Matchers.equalTo(1));

    as(WRITER)
        .queryParam("repo", repo)
        .header("If-Match", '"' + Checksums.EMPTY + '"')
        .body(entries("a.md", "two"))
        .put(PATH)
        .then()
        .statusCode(412);
  }

  @Test
  void ifMatchWithAnyOtherChecksumOnANeverWrittenRepositoryReturns412AndCreatesNothing() {
    String repo = fresh("other-if-match");
    as(WRITER)
        .queryParam("repo", repo)
        .header("If-Match", '"' + Checksums.ofContent("x") + '"')
        .body(entries("a.md", "one"))
        .put(PATH)
        .then()
        .statusCode(412)
        .body("error.details.checksum", org.hamcrest.Matchers.equalTo(Checksums.EMPTY));
    as(WRITER).queryParam("repo", repo).get(PATH).then().statusCode(404);
  }

  @Test
  void repositoryNamesMatchCaseInsensitivelyAndKeepTheFirstWritesSpelling() {
    String repo = fresh("Case");
    String upper = repo.toUpperCase(java.util.Locale.ROOT);
    put(upper, entries("a.md", "one"));
    put(repo.toLowerCase(java.util.Locale.ROOT), entries("b.md", "two"));

    JsonPath body = as(WRITER).queryParam("repo", repo).get(PATH).then().extract().jsonPath();

    assertThat(body.getString("repo")).isEqualTo(upper);
    assertThat(body.getString("organizationId")).isEqualTo("TEST-OWNER");
    assertThat(body.getMap("content.entries")).containsOnlyKeys("a.md", "b.md");
    assertThat(body.getLong("version")).isEqualTo(2);
  }

  @Test
  void anthropicBetaHeaderIsIgnored() {
    String repo = fresh("beta");
    as(WRITER)
        .header("anthropic-beta", "oauth-2025-04-20")
        .header("User-Agent", "claude-cli/2.1.88")
        .queryParam("repo", repo)
        .body(entries("a.md", "one"))
        .put(PATH)
        .then()
        .statusCode(200);
    as(WRITER)
        .header("anthropic-beta", "oauth-2025-04-20")
        .queryParam("repo", repo)
        .get(PATH)
        .then()
        .statusCode(200);
  }

  @Test
  void contentTypeWithACharsetParameterIsAccepted() {
    String repo = fresh("charset");
    io.restassured.RestAssured.given()
        .auth()
        .oauth2(WRITER)
        .contentType("application/json; charset=utf-8")
        .queryParam("repo", repo)
        .body("{\"entries\":{\"a.md\":\"one\"}}")
        .put(PATH)
        .then()
        .statusCode(200);
  }
}
