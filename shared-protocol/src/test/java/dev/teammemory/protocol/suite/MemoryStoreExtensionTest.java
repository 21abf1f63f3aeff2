package dev.teammemory.protocol.suite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.suite.ProtocolServer.Caller;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a repository's memory store is (PROTOCOL.md "Extensions", "Memory store"). */
class MemoryStoreExtensionTest extends ExtensionSuite {

  static final String STORES_PATH = "/v1/memory_stores";
  static final String STORE_PATH = ProtocolServer.MEMORY_PATH + "/store";

  @Test
  void aWrittenRepositoryNamesItsStoreAndWhereItIsServed() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    JsonNode body = store(repo).send().expectStatus(200).json();

    String id = body.path("id").textValue();
    assertThat(id).matches("memstore_[A-Za-z0-9_-]+");
    assertThat(body.path("path").textValue()).isEqualTo(STORES_PATH + "/" + id);
  }

  @Test
  void theStoreIsOneForEverySpellingOfTheRepositoryAndReadersSeeIt() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));
    String id = store(repo).send().expectStatus(200).json().path("id").textValue();

    assertThat(store(repo.toUpperCase(Locale.ROOT)).send().expectStatus(200).json().path("id"))
        .hasToString('"' + id + '"');
    assertThat(store(repo).as(Caller.READER).send().expectStatus(200).json().path("id").textValue())
        .isEqualTo(id);
  }

  @Test
  void theStoreNeedsReadAccess() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    store(repo).as(Caller.OUTSIDER).send().expectError(404, ErrorCodes.NOT_FOUND);
    store(repo).as(Caller.ANONYMOUS).send().expectError(401, ErrorCodes.UNAUTHORIZED);
    server
        .call("GET", STORE_PATH)
        .query("repo", "not a slug")
        .send()
        .expectError(400, ErrorCodes.INVALID_REPO);
  }

  private static ProtocolServer.HttpCall store(String repo) {
    return server.call("GET", STORE_PATH).query("repo", repo);
  }
}
