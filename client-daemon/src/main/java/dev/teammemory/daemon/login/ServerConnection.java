package dev.teammemory.daemon.login;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.sync.TokenSource;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Map;

/**
 * Which team-memory server to talk to and how to authenticate: {@code TMEM_SERVER_URL} (else the
 * one server {@code tmem login} stored a login for) and a {@link TokenSource} ({@code TMEM_TOKEN},
 * else the stored login).
 */
public record ServerConnection(String serverUrl, TokenSource tokens) {

  public ServerConnection {
    requireNonNull(serverUrl, "serverUrl is null");
    requireNonNull(tokens, "tokens is null");
    while (serverUrl.endsWith("/")) {
      serverUrl = serverUrl.substring(0, serverUrl.length() - 1);
    }
  }

  /**
   * Reads the connection from the environment, or fails with a usage error that says what to set.
   * Without {@code TMEM_SERVER_URL}, a developer who logged in to one server uses that one.
   */
  public static ServerConnection fromEnvironment(Map<String, String> environment) {
    String url = environment.get("TMEM_SERVER_URL");
    if (url == null || url.isBlank()) {
      url = theLoggedInServer(environment);
    }
    url = url.strip();
    try {
      URI uri = new URI(url);
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
          || uri.getHost() == null) {
        throw UserError.usage(
            "TMEM_SERVER_URL is not an http(s) URL: " + url + ". Set it to e.g. https://host:port");
      }
    } catch (URISyntaxException e) {
      throw UserError.usage(
          "TMEM_SERVER_URL is not a URL ("
              + e.getReason()
              + "): "
              + url
              + ". Set it to e.g. https://host:port");
    }
    return new ServerConnection(url, StoredLogin.tokens(url, environment));
  }

  private static String theLoggedInServer(Map<String, String> environment) {
    List<String> servers = StoredLogin.servers(environment);
    if (servers.size() == 1) {
      return servers.getFirst();
    }
    if (servers.isEmpty()) {
      throw UserError.usage(
          "no team-memory server configured: run tmem login --server URL with your team's"
              + " server, or set TMEM_SERVER_URL (for example"
              + " export TMEM_SERVER_URL=https://team-memory.example.com)");
    }
    throw UserError.usage(
        "you are logged in to several servers ("
            + String.join(", ", servers)
            + "): set TMEM_SERVER_URL to the one to use");
  }

  /** A protocol client for this server that asks the token source before every request. */
  public TeamMemoryClient client() {
    return new TeamMemoryClient(serverUrl, () -> tokens.token().orElse(""), userAgent());
  }

  /** {@code tmem/<version>}, as the jar's manifest says. */
  public static String userAgent() {
    String version = ServerConnection.class.getPackage().getImplementationVersion();
    return "tmem/" + (version == null ? "dev" : version);
  }

  /** Fails with a usage error when no token source has a token. */
  public ServerConnection requireToken() {
    if (tokens.token().isEmpty()) {
      throw UserError.usage(
          "no token for "
              + serverUrl
              + " (looked in "
              + tokens.describe()
              + "): run `tmem login` or set TMEM_TOKEN");
    }
    return this;
  }
}
