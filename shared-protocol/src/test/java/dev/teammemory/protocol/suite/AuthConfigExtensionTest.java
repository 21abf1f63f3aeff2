package dev.teammemory.protocol.suite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.suite.ProtocolServer.Caller;
import org.junit.jupiter.api.Test;

/**
 * Auth discovery (PROTOCOL.md "Extensions", "Auth discovery"). A server that offers no GitHub login
 * (static tokens only, as the suite's staging setup recommends) answers {@code 404 not_found}.
 */
class AuthConfigExtensionTest extends ExtensionSuite {

  @Test
  void authConfigNeedsNoTokenAndNamesTheGitHubEndpoints() {
    Reply reply = server.call("GET", "/api/auth/config").as(Caller.ANONYMOUS).send();
    if (reply.status() == 404) {
      reply.expectError(404, ErrorCodes.NOT_FOUND);
      return;
    }
    reply.expectStatus(200);

    JsonNode github = reply.json().path("github");
    for (String field : new String[] {"clientId", "deviceCodeUrl", "tokenUrl", "apiUrl"}) {
      assertThat(github.path(field).isTextual()).as(field + " in " + reply.describe()).isTrue();
    }
    assertThat(github.path("scopes").isArray()).as("scopes in " + reply.describe()).isTrue();
    assertThat(reply.json().path("memoryStores").textValue())
        .as("memoryStores in " + reply.describe())
        .isEqualTo(MemoryStoreExtensionTest.STORES_PATH);
  }
}
