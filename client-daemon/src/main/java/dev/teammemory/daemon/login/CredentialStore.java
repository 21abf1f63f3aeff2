package dev.teammemory.daemon.login;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.teammemory.daemon.files.AtomicFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The stored logins, one per server, in {@code <state home>/credentials.json}. The file is readable
 * only by the user (0600) from the moment it exists: it is created with that mode, filled, and
 * renamed over the old one, never written first and restricted afterwards. Its folder is 0700.
 *
 * <p>Changes run under a lock ({@code .credentials.lock}, across processes and threads), so a
 * daemon refreshing a token and a {@code tmem login} never lose each other's entry, and two
 * processes never both spend the same single-use refresh token.
 */
final class CredentialStore {

  static final String FILE_NAME = "credentials.json";
  private static final String LOCK_NAME = ".credentials.lock";
  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  private static final Set<PosixFilePermission> OWNER_FILE =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_FOLDER =
      PosixFilePermissions.fromString("rwx------");
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  /** A file lock belongs to the whole process, so threads of one process take this one first. */
  private static final ReentrantLock IN_PROCESS = new ReentrantLock();

  private final Path folder;
  private final Path file;

  CredentialStore(Path stateHome) {
    this.folder = requireNonNull(stateHome, "stateHome is null").toAbsolutePath().normalize();
    this.file = folder.resolve(FILE_NAME);
  }

  Path file() {
    return file;
  }

  /** Every stored login, in the order they were first saved. */
  List<Credential> all() throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    StoredFile stored;
    try {
      stored = JSON.readValue(file.toFile(), StoredFile.class);
    } catch (IOException e) {
      // Jackson's message may quote the file's text, and the file holds tokens.
      throw new IOException(file + " is not a valid credentials file");
    }
    List<Credential> credentials = new ArrayList<>();
    for (Entry entry : stored.logins()) {
      credentials.add(entry.credential(file));
    }
    return credentials;
  }

  Optional<Credential> find(String server) throws IOException {
    String normalised = ServerUrl.normalise(server);
    return all().stream().filter(c -> c.server().equals(normalised)).findFirst();
  }

  /** Stores the login, replacing the one for the same server. */
  void save(Credential credential) throws IOException {
    requireNonNull(credential, "credential is null");
    locked(
        () -> {
          List<Credential> credentials = new ArrayList<>(all());
          int index = indexOf(credentials, credential.server());
          if (index >= 0) {
            credentials.set(index, credential);
          } else {
            credentials.add(credential);
          }
          write(credentials);
          return null;
        });
  }

  /**
   * Deletes the login for the server, and the file when it was the last; returns what it deleted.
   */
  Optional<Credential> remove(String server) throws IOException {
    String normalised = ServerUrl.normalise(server);
    return locked(
        () -> {
          List<Credential> credentials = new ArrayList<>(all());
          int index = indexOf(credentials, normalised);
          if (index < 0) {
            return Optional.empty();
          }
          Credential removed = credentials.remove(index);
          write(credentials);
          return Optional.of(removed);
        });
  }

  /** Runs {@code action} holding the store's lock; nested calls in the same thread are fine. */
  <T> T locked(Action<T> action) throws IOException {
    IN_PROCESS.lock();
    try {
      if (IN_PROCESS.getHoldCount() > 1) {
        return action.run();
      }
      createFolder();
      try (FileChannel channel =
              POSIX
                  ? FileChannel.open(
                      folder.resolve(LOCK_NAME),
                      Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                      ownerOnly(OWNER_FILE))
                  : FileChannel.open(
                      folder.resolve(LOCK_NAME),
                      StandardOpenOption.CREATE,
                      StandardOpenOption.WRITE);
          FileLock lock = channel.lock()) {
        return action.run();
      }
    } finally {
      IN_PROCESS.unlock();
    }
  }

  /** Work done under the store's lock. */
  @FunctionalInterface
  interface Action<T> {
    T run() throws IOException;
  }

  private static int indexOf(List<Credential> credentials, String server) {
    for (int i = 0; i < credentials.size(); i++) {
      if (credentials.get(i).server().equals(server)) {
        return i;
      }
    }
    return -1;
  }

  private void write(List<Credential> credentials) throws IOException {
    if (credentials.isEmpty()) {
      Files.deleteIfExists(file);
      return;
    }
    List<Entry> entries = credentials.stream().map(Entry::of).toList();
    byte[] bytes = JSON.writeValueAsBytes(new StoredFile(1, entries));
    createFolder();
    // The mode is part of the creation: at no moment can another user open the file.
    AtomicFiles.write(file, bytes, OWNER_FILE);
  }

  /**
   * Creates the state folder 0700, or narrows an existing one to 0700: other state lives there too
   * ({@code tmem add} may have created it with the default mode), and none of it is anyone else's
   * business.
   */
  private void createFolder() throws IOException {
    if (!POSIX) {
      Files.createDirectories(folder);
      return;
    }
    if (!Files.isDirectory(folder)) {
      Files.createDirectories(folder, ownerOnly(OWNER_FOLDER));
    }
    if (!Files.getPosixFilePermissions(folder).equals(OWNER_FOLDER)) {
      Files.setPosixFilePermissions(folder, OWNER_FOLDER);
    }
  }

  private static FileAttribute<Set<PosixFilePermission>> ownerOnly(
      Set<PosixFilePermission> permissions) {
    return PosixFilePermissions.asFileAttribute(permissions);
  }

  private record StoredFile(
      @JsonProperty("version") int version, @JsonProperty("logins") List<Entry> logins) {
    StoredFile {
      logins = logins == null ? List.of() : List.copyOf(logins);
    }
  }

  /** One login as the file spells it: ISO-8601 instants, absent fields left out. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  private record Entry(
      @JsonProperty("server") String server,
      @JsonProperty("githubLogin") String githubLogin,
      @JsonProperty("accessToken") String accessToken,
      @JsonProperty("refreshToken") String refreshToken,
      @JsonProperty("expiresAt") String expiresAt,
      @JsonProperty("refreshExpiresAt") String refreshExpiresAt,
      @JsonProperty("savedAt") String savedAt,
      @JsonProperty("clientId") String clientId,
      @JsonProperty("tokenUrl") String tokenUrl) {

    static Entry of(Credential credential) {
      return new Entry(
          credential.server(),
          credential.githubLogin(),
          credential.accessToken(),
          credential.refreshToken().orElse(null),
          credential.expiresAt().map(Instant::toString).orElse(null),
          credential.refreshExpiresAt().map(Instant::toString).orElse(null),
          credential.savedAt().toString(),
          credential.clientId(),
          credential.tokenUrl());
    }

    Credential credential(Path file) throws IOException {
      if (server == null || githubLogin == null || accessToken == null || savedAt == null) {
        throw new IOException(
            file + " has a login without server, githubLogin, accessToken or savedAt");
      }
      try {
        return new Credential(
            ServerUrl.normalise(server),
            githubLogin,
            accessToken,
            Optional.ofNullable(refreshToken),
            Optional.ofNullable(expiresAt).map(Instant::parse),
            Optional.ofNullable(refreshExpiresAt).map(Instant::parse),
            Instant.parse(savedAt),
            clientId == null ? "" : clientId,
            tokenUrl == null ? "" : tokenUrl);
      } catch (DateTimeParseException | IllegalArgumentException e) {
        throw new IOException(file + " has an invalid login for " + server + ": " + e.getMessage());
      }
    }
  }
}
