package dev.teammemory.daemon.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialStoreTest {

  @TempDir Path root;

  private static Credential login(String server, String token) {
    return new Credential(
        server,
        "octocat",
        token,
        Optional.of("ghr_refresh"),
        Optional.of(Instant.parse("2026-03-02T17:00:00Z")),
        Optional.of(Instant.parse("2026-09-01T09:00:00Z")),
        Instant.parse("2026-03-02T09:00:00Z"),
        "Iv1.client",
        "https://github.com/login/oauth/access_token");
  }

  @Test
  void theFileIsReadableOnlyByTheUserInAFolderOnlyTheUserCanEnter() throws IOException {
    CredentialStore store = new CredentialStore(root.resolve("state/tmem"));

    store.save(login("https://team-memory.example.com", "gho_one"));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(store.file())))
        .isEqualTo("rw-------");
    assertThat(
            PosixFilePermissions.toString(Files.getPosixFilePermissions(store.file().getParent())))
        .isEqualTo("rwx------");
    try (var files = Files.list(store.file().getParent())) {
      assertThat(files.map(file -> file.getFileName().toString()))
          .containsExactlyInAnyOrder("credentials.json", ".credentials.lock");
    }
  }

  @Test
  void anExistingStateFolderIsNarrowedToTheUser() throws IOException {
    Path folder = Files.createDirectories(root.resolve("state/tmem"));
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));

    new CredentialStore(folder).save(login("https://team-memory.example.com", "gho_one"));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)))
        .isEqualTo("rwx------");
  }

  @Test
  void oneLoginPerServerWithTrailingSlashesIgnored() throws IOException {
    CredentialStore store = new CredentialStore(root);
    store.save(login("https://team-memory.example.com", "gho_one"));
    store.save(login("https://other.example.com", "gho_other"));
    store.save(login("https://team-memory.example.com", "gho_two"));

    assertThat(store.all())
        .extracting(Credential::server, Credential::accessToken)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("https://team-memory.example.com", "gho_two"),
            org.assertj.core.groups.Tuple.tuple("https://other.example.com", "gho_other"));
    assertThat(store.find("https://team-memory.example.com//"))
        .map(Credential::accessToken)
        .contains("gho_two");
  }

  @Test
  void everyFieldSurvivesTheFile() throws IOException {
    CredentialStore store = new CredentialStore(root);
    Credential credential = login("https://team-memory.example.com", "ghu_token");

    store.save(credential);

    assertThat(store.find("https://team-memory.example.com")).contains(credential);
  }

  @Test
  void removingTheLastLoginDeletesTheFile() throws IOException {
    CredentialStore store = new CredentialStore(root);
    store.save(login("https://team-memory.example.com", "gho_one"));

    assertThat(store.remove("https://team-memory.example.com/"))
        .map(Credential::githubLogin)
        .contains("octocat");
    assertThat(store.file()).doesNotExist();
    assertThat(store.remove("https://team-memory.example.com")).isEmpty();
  }

  @Test
  void aCredentialNeverShowsItsTokens() {
    assertThat(login("https://team-memory.example.com", "gho_secretToken").toString())
        .doesNotContain("gho_secretToken")
        .doesNotContain("ghr_refresh")
        .contains("octocat");
  }

  @Test
  void aDamagedFileIsReportedWithoutQuotingIt() throws IOException {
    CredentialStore store = new CredentialStore(root);
    Files.writeString(store.file(), "{\"logins\": [{\"accessToken\": \"gho_leak\"");

    assertThatThrownBy(store::all)
        .isInstanceOf(IOException.class)
        .hasMessage(store.file() + " is not a valid credentials file")
        .hasMessageNotContaining("gho_leak");
  }
}
