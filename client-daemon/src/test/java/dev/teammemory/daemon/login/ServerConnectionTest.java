package dev.teammemory.daemon.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.teammemory.daemon.command.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConnectionTest {

  @TempDir Path state;

  private Map<String, String> environment(String... more) {
    Map<String, String> variables = new java.util.HashMap<>();
    variables.put("XDG_STATE_HOME", state.toString());
    for (int i = 0; i < more.length; i += 2) {
      variables.put(more[i], more[i + 1]);
    }
    return variables;
  }

  /** The credentials file as {@code tmem login} writes it. */
  private void loggedInTo(String... servers) throws IOException {
    String logins =
        Arrays.stream(servers)
            .map(
                server ->
                    "{\"server\":\""
                        + server
                        + "\",\"githubLogin\":\"octocat\",\"accessToken\":\"gho_x\","
                        + "\"savedAt\":\"2026-11-22T09:00:00Z\"}")
            .collect(Collectors.joining(","));
    Files.createDirectories(state.resolve("tmem"));
    Files.writeString(state.resolve("tmem/credentials.json"), "{\"logins\":[" + logins + "]}");
  }

  @Test
  void withoutTmemServerUrlTheOnlyLoggedInServerIsUsedWithItsToken() throws IOException {
    loggedInTo("https://memory.acme.dev");

    ServerConnection connection = ServerConnection.fromEnvironment(environment());

    assertThat(connection.serverUrl()).isEqualTo("https://memory.acme.dev");
    assertThat(connection.tokens().token()).contains("gho_x");
  }

  @Test
  void tmemServerUrlWinsOverTheStoredLogin() throws IOException {
    loggedInTo("https://memory.acme.dev");

    ServerConnection connection =
        ServerConnection.fromEnvironment(
            environment("TMEM_SERVER_URL", "https://other.example.com/"));

    assertThat(connection.serverUrl()).isEqualTo("https://other.example.com");
    assertThat(connection.tokens().token()).isEmpty();
  }

  @Test
  void neitherAUrlNorALoginIsAUsageErrorThatSaysWhatToDo() {
    assertThatThrownBy(() -> ServerConnection.fromEnvironment(environment()))
        .isInstanceOf(UserError.class)
        .hasMessageContaining("run tmem login --server URL")
        .hasMessageContaining("or set TMEM_SERVER_URL");
  }

  @Test
  void severalLoginsNeedTmemServerUrlToChoose() throws IOException {
    loggedInTo("https://memory.acme.dev", "https://memory.example.org");

    assertThatThrownBy(() -> ServerConnection.fromEnvironment(environment()))
        .isInstanceOf(UserError.class)
        .hasMessage(
            "you are logged in to several servers (https://memory.acme.dev,"
                + " https://memory.example.org): set TMEM_SERVER_URL to the one to use");
  }
}
