package dev.teammemory.daemon.login;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who is logged in where, for {@code tmem status}: the token in {@code TMEM_TOKEN} (for {@code
 * TMEM_SERVER_URL}) and every stored login. Read from the environment and the credentials file
 * only; it asks no server, so it answers when the network does not.
 *
 * @param server the server URL; null when {@code TMEM_TOKEN} is set without {@code TMEM_SERVER_URL}
 * @param githubLogin null for {@code TMEM_TOKEN}, whose owner is not looked up
 * @param source {@code TMEM_TOKEN}, {@code stored login} or {@code none}
 * @param expiresAt when the access token expires; null when it does not
 * @param words the line {@code tmem status} prints
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoginStatus(
    String server, String githubLogin, String source, String expiresAt, String words) {

  public LoginStatus {
    requireNonNull(source, "source is null");
    requireNonNull(words, "words is null");
  }

  /** Every login, {@code TMEM_TOKEN} first; one line saying how to log in when there is none. */
  public static List<LoginStatus> of(Map<String, String> environment, Path stateHome, Instant now) {
    List<LoginStatus> logins = new ArrayList<>();
    Optional<String> serverUrl =
        Optional.ofNullable(environment.get("TMEM_SERVER_URL"))
            .filter(value -> !value.isBlank())
            .map(ServerUrl::normalise);
    boolean environmentToken =
        Optional.ofNullable(environment.get("TMEM_TOKEN")).filter(v -> !v.isBlank()).isPresent();
    if (environmentToken) {
      logins.add(
          serverUrl
              .map(
                  url ->
                      new LoginStatus(
                          url,
                          null,
                          "TMEM_TOKEN",
                          null,
                          "logged in to "
                              + url
                              + " (token from TMEM_TOKEN, which overrides a stored login; its"
                              + " GitHub login is not looked up)"))
              .orElseGet(
                  () ->
                      new LoginStatus(
                          null,
                          null,
                          "TMEM_TOKEN",
                          null,
                          "TMEM_TOKEN is set but TMEM_SERVER_URL is not: set it to the server"
                              + " the token is for")));
    }
    CredentialStore store = new CredentialStore(stateHome);
    List<Credential> stored;
    try {
      stored = store.all();
    } catch (IOException e) {
      logins.add(
          new LoginStatus(
              null,
              null,
              "stored login",
              null,
              "cannot read the stored logins ("
                  + e.getMessage()
                  + "): delete "
                  + store.file()
                  + " and run `tmem login` again"));
      return logins;
    }
    for (Credential credential : stored) {
      boolean overridden =
          environmentToken && serverUrl.map(credential.server()::equals).orElse(false);
      logins.add(stored(credential, overridden, now));
    }
    if (logins.isEmpty()) {
      logins.add(
          new LoginStatus(
              serverUrl.orElse(null),
              null,
              "none",
              null,
              "not logged in: run `tmem login --server URL` or set TMEM_TOKEN"));
    }
    return logins;
  }

  private static LoginStatus stored(Credential credential, boolean overridden, Instant now) {
    String server = credential.server();
    String login = credential.githubLogin();
    String expiresAt =
        credential
            .expiresAt()
            .map(at -> at.truncatedTo(ChronoUnit.SECONDS).toString())
            .orElse(null);
    String refreshUntil =
        credential
            .refreshExpiresAt()
            .map(at -> " until " + at.truncatedTo(ChronoUnit.SECONDS))
            .orElse("");
    String state;
    if (credential.expiresAt().isEmpty()) {
      state = "stored login, does not expire";
    } else if (!credential.expired(now)) {
      state =
          "stored login, expires "
              + expiresAt
              + (credential.refreshable(now) ? ", refreshed automatically" + refreshUntil : "");
    } else if (credential.refreshable(now)) {
      state = "stored login, expired " + expiresAt + ", refreshed at its next use" + refreshUntil;
    } else {
      return new LoginStatus(
          server,
          login,
          "stored login",
          expiresAt,
          "login to "
              + server
              + " as "
              + login
              + " expired "
              + expiresAt
              + ": run `tmem login --server "
              + server
              + "`");
    }
    if (overridden) {
      state += "; not used while TMEM_TOKEN is set";
    }
    return new LoginStatus(
        server,
        login,
        "stored login",
        expiresAt,
        "logged in to " + server + " as " + login + " (" + state + ")");
  }
}
