package dev.teammemory.protocol.suite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.ErrorCodes;
import java.security.SecureRandom;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server scans every PUT and rejects a known secret with {@code 422} naming the key, the rule
 * and the line, never the match (PROTOCOL.md "Limits and their errors").
 */
class SecretDetectionTest {

  private static final String ALPHANUMERIC =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  private static ProtocolServer server;

  @BeforeAll
  static void connect() {
    server = ProtocolServer.shared();
  }

  @Test
  void aPutCarryingAGitHubTokenIs422WithFindingsAndWritesNothing() {
    String repo = server.newRepository();
    server.write(repo, Map.of("MEMORY.md", "# Team memory\n"));
    ProtocolServer.RepositoryState before = server.state(repo);
    String secret = githubTokenShaped();

    Reply reply =
        server.put(
            repo,
            Map.of(
                "notes/deploy.md",
                "How we deploy:\nexport GITHUB_TOKEN=" + secret + "\nthen run the script.\n",
                "notes/clean.md",
                "nothing secret here\n"));

    JsonNode error = reply.expectError(422, ErrorCodes.SECRET_DETECTED);
    JsonNode findings = error.path("details").path("findings");
    assertThat(findings.isArray()).as("details.findings is an array: " + reply.describe()).isTrue();
    assertThat(findings).hasSize(1);
    JsonNode finding = findings.get(0);
    assertThat(finding.path("key").textValue()).isEqualTo("notes/deploy.md");
    assertThat(finding.path("ruleId").isTextual() && !finding.path("ruleId").textValue().isBlank())
        .as("ruleId names the rule: " + finding)
        .isTrue();
    assertThat(finding.path("line").isIntegralNumber()).as("line is a number: " + finding).isTrue();
    assertThat(finding.path("line").intValue()).isEqualTo(2);
    assertThat(reply.text()).as("the answer never repeats the secret").doesNotContain(secret);
    assertThat(server.state(repo)).isEqualTo(before);
  }

  /** A token GitHub could have issued: {@code ghp_} and 36 random characters, made per run. */
  private static String githubTokenShaped() {
    SecureRandom random = new SecureRandom();
    StringBuilder token = new StringBuilder("ghp_");
    for (int index = 0; index < 36; index++) {
      token.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
    }
    return token.toString();
  }
}
