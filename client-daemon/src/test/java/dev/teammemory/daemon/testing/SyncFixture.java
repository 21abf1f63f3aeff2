package dev.teammemory.daemon.testing;

import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.sync.SyncEngine;
import dev.teammemory.daemon.sync.SyncSettings;
import dev.teammemory.daemon.sync.SyncTarget;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.secrets.SecretScanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Starts sync engines ("daemons") in the test JVM and reads the server directly. */
public final class SyncFixture implements AutoCloseable {

  /** Short timings so tests run in seconds; the daemon itself uses 2 s. */
  public static final SyncSettings FAST =
      SyncSettings.defaults()
          .withQuietPeriod(Duration.ofMillis(300))
          .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(2))
          .withFeedWait(Duration.ofSeconds(10));

  private static final SecretGuard GUARD = new SecretGuard(SecretScanner.defaultRules());

  private final List<AutoCloseable> open = new ArrayList<>();
  private final Path root;

  public SyncFixture(Path root) {
    this.root = root;
  }

  /** A started engine for {@code name}'s team folder, talking to {@code url} with {@code token}. */
  public SyncEngine daemon(String name, String repo, String url, String token) throws IOException {
    SyncEngine engine = open(name, repo, url, token);
    engine.start();
    return engine;
  }

  /** A started engine with {@code settings} instead of {@link #FAST}. */
  public SyncEngine daemon(
      String name, String repo, String url, String token, SyncSettings settings)
      throws IOException {
    SyncEngine engine = open(name, repo, url, token, settings);
    engine.start();
    return engine;
  }

  public SyncEngine open(String name, String repo, String url, String token) throws IOException {
    return open(name, repo, url, token, FAST);
  }

  public SyncEngine open(String name, String repo, String url, String token, SyncSettings settings)
      throws IOException {
    TeamMemoryClient client = client(url, token);
    Path team = Files.createDirectories(teamDir(name));
    SyncEngine engine =
        SyncEngine.open(
            new SyncTarget(url, repo, team, root.resolve(name + "-state")),
            client,
            () -> Optional.of(token),
            GUARD,
            settings);
    open.add(0, engine);
    return engine;
  }

  public Path stateDir(String name) {
    return root.resolve(name + "-state");
  }

  public Path teamDir(String name) {
    return root.resolve(name).resolve("memory/team");
  }

  public TeamMemoryClient client(String url, String token) {
    TeamMemoryClient client = new TeamMemoryClient(url, () -> token, "tmem-it");
    open.add(client);
    return client;
  }

  /** The server's entries of the repository, empty when it has none. */
  public static Map<String, String> entries(TeamMemoryClient client, String repo) {
    return switch (client.fetch(repo, Optional.empty())) {
      case Response.Ok<RepositorySnapshot> ok -> ok.body().content().entries();
      default -> Map.of();
    };
  }

  public static Map<String, String> checksums(TeamMemoryClient client, String repo) {
    return client.fetchHashes(repo) instanceof Response.Ok<HashesView> ok
        ? ok.body().entryChecksums()
        : Map.of();
  }

  public static boolean hasContent(Path file, String content) {
    return Conditions.quietly(() -> Files.readString(file).equals(content));
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable closeable : open) {
      closeable.close();
    }
    open.clear();
  }
}
