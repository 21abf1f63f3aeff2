package dev.teammemory.server.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ProtocolJson;
import dev.teammemory.server.github.FakeGitHub;
import dev.teammemory.server.memory.RepositoryReader;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Measures the packaged server against PostgreSQL alone on the same machine, in the same run: a
 * repository of 1,000 entries of about 1 KB, 16 concurrent clients on loopback, for the hashes
 * probe, the full GET and small PUTs (5 entries, {@code If-Match} chained). Beside each figure it
 * prints the same work done directly in PostgreSQL through JDBC (the statements the server runs,
 * with the checksum computed in Java) and the ratio. Not a test: it asserts nothing.
 *
 * <p>GitHub login is on, against a {@link FakeGitHub} on loopback, as on a team's deployment; the
 * static token is looked up first and never reaches it. The {@code auth} operation runs the hashes
 * probe with a GitHub token beside the same probe with the static token, and prints how many times
 * the fake GitHub was asked meanwhile.
 *
 * <p>The Memory Stores API's operations ({@code store-retrieve}, {@code store-list}, {@code
 * store-update}) are set beside the statements the server runs for them. {@code http-floor} sets
 * the cheapest request this server answers (a constant, no token, no database) beside PostgreSQL
 * alone's retrieve, and then that request followed by the retrieve: the ceiling a retrieve served
 * over this HTTP stack can reach on this machine.
 *
 * <p>Run: {@code deploy/scripts/benchmark.sh server} (optional: {@code -Dbench.seconds=15} measured
 * per operation and side, {@code -Dbench.warmup.seconds=20} per operation, {@code
 * -Dbench.operations=hashes,get,put,auth,store-retrieve,store-list,store-update,http-floor}, {@code
 * -Dbench.server.jvm="-XX:StartFlightRecording=…"} to profile the server).
 */
public final class ServerBenchmark {

  private static final int CONCURRENCY = 16;
  private static final int ENTRIES = 1_000;
  private static final int ENTRY_BYTES = 1_000;
  private static final int PUT_ENTRIES = 5;
  private static final String TOKEN = "benchmark-token";

  /** A GitHub user's token (opaque, like GitHub's), with write on the probed repository. */
  private static final String GITHUB_TOKEN = "gho_benchmark0github0token";

  private static final String GITHUB_LOGIN = "benchmark-github-user";

  private static final String PATH = "/api/claude_code/team_memory";
  private static final int ROUNDS = 3;

  /** The statements the server runs for the hashes view and the full GET. */
  private static final String HASHES = RepositoryReader.HASHES;

  private static final String HEAD = RepositoryReader.HEAD;

  private static final String SNAPSHOT_ENTRIES = RepositoryReader.ENTRIES;

  private static final String CHECKSUMS = RepositoryReader.CHECKSUMS;

  /** Measured time per operation and side, split into ROUNDS alternating slices. */
  private final Duration measure = Duration.ofSeconds(Long.getLong("bench.seconds", 15));

  private final Duration warmUp = Duration.ofSeconds(Long.getLong("bench.warmup.seconds", 20));
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .executor(
              Executors.newFixedThreadPool(
                  4, runnable -> Thread.ofPlatform().daemon().unstarted(runnable)))
          .build();
  private String jdbcUrl;
  private URI base;
  private FakeGitHub gitHub;

  private ServerBenchmark() {}

  public static void main(String... args) throws Exception {
    new ServerBenchmark().run();
  }

  private void run() throws Exception {
    Path work = Files.createTempDirectory("tmem-bench");
    try (EmbeddedPostgres postgres =
            EmbeddedPostgres.builder().setPGStartupWait(Duration.ofSeconds(60)).start();
        FakeGitHub fakeGitHub = new FakeGitHub()) {
      jdbcUrl = postgres.getJdbcUrl("postgres", "postgres");
      gitHub = fakeGitHub;
      gitHub.addUser(GITHUB_TOKEN, GITHUB_LOGIN, 4_242);
      gitHub.grant(GITHUB_LOGIN, repo(0), "write");
      Process server = startServer(work);
      try {
        awaitReady(server);
        System.out.printf(
            "Loading %d repositories of %d entries of %d bytes…%n",
            CONCURRENCY, ENTRIES, ENTRY_BYTES);
        for (int repository = 0; repository < CONCURRENCY; repository++) {
          load(repository);
        }
        // A fresh JVM interprets and compiles for its first tens of seconds; PostgreSQL does not.
        List<String> operations =
            List.of(System.getProperty("bench.operations", "hashes,get,put").split(","));
        boolean storeApi =
            operations.stream()
                .anyMatch(
                    operation -> operation.startsWith("store-") || operation.equals("http-floor"));
        if (storeApi) {
          loadStores();
        }
        System.out.printf("Warming up the server for %d s…%n", warmUp.toSeconds() * 3);
        throughput(this::serverHashes, warmUp, Duration.ZERO);
        throughput(this::serverGet, warmUp, Duration.ZERO);
        throughput(this::serverPut, warmUp, Duration.ZERO);
        if (storeApi) {
          System.out.printf("Warming up the Memory Stores API for %d s…%n", warmUp.toSeconds() * 3);
          throughput(this::storeRetrieve, warmUp, Duration.ZERO);
          throughput(this::storeList, warmUp, Duration.ZERO);
          throughput(this::storeUpdate, warmUp, Duration.ZERO);
        }
        List<String[]> rows = new ArrayList<>();
        if (operations.contains("hashes")) {
          rows.add(compare("hashes probe", this::serverHashes, this::postgresHashes));
        }
        if (operations.contains("get")) {
          rows.add(compare("full GET", this::serverGet, this::postgresGet));
        }
        if (operations.contains("put")) {
          rows.add(compare("small PUT (5 entries, If-Match)", this::serverPut, this::postgresPut));
        }
        if (operations.contains("store-retrieve")) {
          rows.add(
              compare("store API: retrieve a memory", this::storeRetrieve, this::postgresRetrieve));
        }
        if (operations.contains("http-floor")) {
          throughput(this::httpFloor, warmUp, Duration.ZERO);
          rows.add(
              compare(
                  "HTTP floor: a constant answer, beside a retrieve",
                  this::httpFloor,
                  this::postgresRetrieve));
          rows.add(
              compare(
                  "ceiling: the HTTP floor, then a retrieve in PostgreSQL alone",
                  this::ceiling,
                  this::postgresRetrieve));
        }
        if (operations.contains("store-list")) {
          rows.add(compare("store API: list, 100 a page", this::storeList, this::postgresList));
        }
        if (operations.contains("store-update")) {
          rows.add(
              compare(
                  "store API: update with content_sha256",
                  this::storeUpdate,
                  this::postgresUpdate));
        }
        print(rows);
        if (operations.contains("auth")) {
          printAuthentication(compareAuthentication());
        }
      } finally {
        server.destroy();
        server.waitFor();
        http.close();
      }
    }
  }

  // ------------------------------------------------------------------------------ the server

  private Process startServer(Path work) throws IOException {
    Path tokens = work.resolve("tokens.txt");
    Files.writeString(tokens, TOKEN + " benchmark * write\n");
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    base = URI.create("http://127.0.0.1:" + port);
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new ArrayList<>(List.of(java));
    String options = System.getProperty("bench.server.jvm", "");
    if (!options.isBlank()) {
      command.addAll(List.of(options.trim().split("\\s+")));
    }
    command.addAll(List.of("-jar", serverJar().toString()));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("server.log").toFile());
    Map<String, String> environment = builder.environment();
    environment.put("QUARKUS_DATASOURCE_JDBC_URL", jdbcUrl);
    environment.put("QUARKUS_HTTP_PORT", Integer.toString(port));
    environment.put("QUARKUS_DATASOURCE_JDBC_MAX_SIZE", "20");
    environment.put("TMEM_AUTH_STATIC_TOKENS_FILE", tokens.toString());
    environment.put("TMEM_AUTH_GITHUB_CLIENT_ID", "Iv1.benchmark0client");
    environment.put("TMEM_AUTH_GITHUB_API_URL", gitHub.apiUrl());
    // One caller's CONCURRENCY clients measure the server's throughput: the fairness limits that
    // keep one caller from taking what others need (docs/admin.md, "Limits") would refuse them.
    environment.put("TMEM_LIMITS_READS_MAX_CONCURRENT", Integer.toString(CONCURRENCY));
    environment.put("TMEM_LIMITS_READS_MAX_CONCURRENT_PER_CALLER", Integer.toString(CONCURRENCY));
    environment.put("TMEM_LIMITS_WRITES_PER_SECOND", "1000000");
    environment.put("TMEM_LIMITS_WRITES_BYTES_PER_SECOND", "1000000000");
    System.out.printf("Server log: %s%n", work.resolve("server.log"));
    return builder.start();
  }

  private static Path serverJar() {
    for (String candidate :
        new String[] {
          System.getProperty("tmem.server.jar", ""),
          "server/target/quarkus-app/quarkus-run.jar",
          "target/quarkus-app/quarkus-run.jar"
        }) {
      if (!candidate.isEmpty() && Files.isRegularFile(Path.of(candidate))) {
        return Path.of(candidate).toAbsolutePath();
      }
    }
    throw new IllegalStateException(
        "no packaged server: run ./mvnw -pl server package -DskipTests first");
  }

  private void awaitReady(Process server) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
    while (Instant.now().isBefore(deadline)) {
      if (!server.isAlive()) {
        throw new IllegalStateException("the server exited with " + server.exitValue());
      }
      try {
        HttpResponse<Void> response =
            http.send(
                HttpRequest.newBuilder(base.resolve("/q/health/ready")).build(),
                HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("the server did not become ready in time");
  }

  private static String repo(int repository) {
    return "benchmark/repository-" + repository;
  }

  private HttpRequest.Builder request(int repository, String query) {
    return HttpRequest.newBuilder(
            base.resolve(PATH + "?repo=" + URLEncoder.encode(repo(repository), UTF_8) + query))
        .header("Authorization", "Bearer " + TOKEN);
  }

  private void load(int repository) throws IOException, InterruptedException {
    Map<String, String> batch = new LinkedHashMap<>();
    for (int entry = 0; entry < ENTRIES; entry++) {
      batch.put("topics/entry-" + entry + ".md", content(repository, entry, 0));
      if (batch.size() == 150 || entry == ENTRIES - 1) {
        HttpResponse<String> response = put(repository, batch, null);
        if (response.statusCode() != 200) {
          throw new IllegalStateException("loading failed: " + response.body());
        }
        batch.clear();
      }
    }
  }

  private static String content(int repository, int entry, long round) {
    String head = "# Entry " + entry + " of repository " + repository + ", round " + round + "\n";
    return head + "x".repeat(ENTRY_BYTES - head.length() - 1) + "\n";
  }

  private HttpResponse<String> put(int repository, Map<String, String> entries, String ifMatch)
      throws IOException, InterruptedException {
    HttpRequest.Builder builder =
        request(repository, "")
            .header("Content-Type", "application/json")
            .PUT(
                HttpRequest.BodyPublishers.ofByteArray(
                    ProtocolJson.mapper().writeValueAsBytes(Map.of("entries", entries))));
    if (ifMatch != null) {
      builder.header("If-Match", '"' + ifMatch + '"');
    }
    return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
  }

  private RawHttpConnection connection() throws IOException {
    return new RawHttpConnection(base.getHost(), base.getPort());
  }

  private String target(int repository, String query) {
    return PATH + "?repo=" + URLEncoder.encode(repo(repository), UTF_8) + query;
  }

  private Worker serverHashes(int worker) throws IOException {
    return hashesProbe(TOKEN);
  }

  private Worker serverHashesWithGitHubToken(int worker) throws IOException {
    return hashesProbe(GITHUB_TOKEN);
  }

  private Worker hashesProbe(String token) throws IOException {
    RawHttpConnection connection = connection();
    String target = target(0, "&view=hashes");
    Map<String, String> headers = Map.of("Authorization", "Bearer " + token);
    return new Worker(
        () -> expectOk(connection.send("GET", target, headers, null, false).status()), connection);
  }

  private Worker serverGet(int worker) throws IOException {
    RawHttpConnection connection = connection();
    String target = target(0, "");
    Map<String, String> headers = Map.of("Authorization", "Bearer " + TOKEN);
    return new Worker(
        () -> expectOk(connection.send("GET", target, headers, null, false).status()), connection);
  }

  private Worker serverPut(int worker) throws IOException, InterruptedException {
    RawHttpConnection connection = connection();
    String target = target(worker, "");
    String[] checksum = {currentChecksum(worker)};
    long[] round = {1};
    Step step =
        () -> {
          Map<String, String> entries = new LinkedHashMap<>();
          for (int entry = 0; entry < PUT_ENTRIES; entry++) {
            entries.put(
                "topics/entry-" + (entry * 97 + round[0]) % ENTRIES + ".md",
                content(worker, entry, round[0]));
          }
          round[0]++;
          RawHttpConnection.Reply reply =
              connection.send(
                  "PUT",
                  target,
                  Map.of(
                      "Authorization", "Bearer " + TOKEN,
                      "Content-Type", "application/json",
                      "If-Match", '"' + checksum[0] + '"'),
                  ProtocolJson.mapper().writeValueAsBytes(Map.of("entries", entries)),
                  true);
          expectOk(reply.status());
          checksum[0] = ProtocolJson.mapper().readTree(reply.body()).get("checksum").asText();
        };
    return new Worker(step, connection);
  }

  private String currentChecksum(int repository) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            request(repository, "&view=hashes").build(), HttpResponse.BodyHandlers.ofString());
    JsonNode body = ProtocolJson.mapper().readTree(response.body());
    return body.get("checksum").asText();
  }

  private static void expectOk(int status) {
    if (status != 200) {
      throw new IllegalStateException("unexpected status " + status);
    }
  }

  // ------------------------------------------------------------------ the Memory Stores API

  /** The store id and the memories (id, current checksum) of each loaded repository. */
  private final Map<Integer, StoreMemories> stores = new HashMap<>();

  private record StoreMemories(String storeId, List<String> memoryIds) {}

  /** Reads each repository's store id and memory ids (straight from the database: setup only). */
  private void loadStores() throws SQLException {
    try (Connection connection = connect(true);
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT r.store_id, e.memory_id FROM repository r JOIN memory_entry e"
                    + " ON e.repository_id = r.id WHERE r.slug_key = ? AND NOT e.deleted"
                    + " ORDER BY e.entry_key COLLATE \"C\"")) {
      for (int repository = 0; repository < CONCURRENCY; repository++) {
        statement.setString(1, repo(repository).toLowerCase(Locale.ROOT));
        String storeId = null;
        List<String> ids = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            storeId = rows.getString(1);
            ids.add(rows.getString(2));
          }
        }
        stores.put(repository, new StoreMemories(storeId, ids));
      }
    }
  }

  private static Map<String, String> storeHeaders() {
    return Map.of("Authorization", "Bearer " + TOKEN);
  }

  /** Each client retrieves the memories of repository 0 in turn, full view. */
  private Worker storeRetrieve(int worker) throws IOException {
    RawHttpConnection connection = connection();
    StoreMemories store = stores.get(0);
    int[] next = {worker * 61};
    Step step =
        () -> {
          String id = store.memoryIds().get(next[0]++ % store.memoryIds().size());
          expectOk(
              connection
                  .send(
                      "GET",
                      "/v1/memory_stores/" + store.storeId() + "/memories/" + id,
                      storeHeaders(),
                      null,
                      false)
                  .status());
        };
    return new Worker(step, connection);
  }

  /**
   * The least a request to this server costs: {@code GET /api/auth/config}, a constant answer of a
   * few hundred bytes (no token, no database), on the same HTTP stack and clients as the store API.
   * Set beside PostgreSQL alone's retrieve, it bounds the ratio any endpoint that also reads the
   * database can reach on this machine.
   */
  private Worker httpFloor(int worker) throws IOException {
    RawHttpConnection connection = connection();
    return new Worker(
        () -> expectOk(connection.send("GET", "/api/auth/config", Map.of(), null, false).status()),
        connection);
  }

  /**
   * What a server with no cost of its own beyond the HTTP floor would achieve: each step is the
   * floor's request followed by PostgreSQL alone's retrieve. Its rate over PostgreSQL alone's is
   * the highest ratio a store-API retrieve can reach on this machine.
   */
  private Worker ceiling(int worker) throws Exception {
    Worker floor = httpFloor(worker);
    Worker retrieve = postgresRetrieve(worker);
    return new Worker(
        () -> {
          floor.once();
          retrieve.once();
        },
        () -> {
          floor.close();
          retrieve.close();
        });
  }

  /** Each client walks repository 0's memories, 100 a page (basic view), page after page. */
  private Worker storeList(int worker) throws IOException {
    RawHttpConnection connection = connection();
    String base = "/v1/memory_stores/" + stores.get(0).storeId() + "/memories?view=basic&limit=100";
    String[] page = {null};
    Step step =
        () -> {
          String target =
              page[0] == null ? base : base + "&page=" + URLEncoder.encode(page[0], UTF_8);
          RawHttpConnection.Reply reply =
              connection.send("GET", target, storeHeaders(), null, true);
          expectOk(reply.status());
          JsonNode next = ProtocolJson.mapper().readTree(reply.body()).get("next_page");
          page[0] = next == null || next.isNull() ? null : next.asText();
        };
    return new Worker(step, connection);
  }

  /** Each client rewrites memories of its own repository, naming the content it last wrote. */
  private Worker storeUpdate(int worker) throws IOException {
    RawHttpConnection connection = connection();
    StoreMemories store = stores.get(worker);
    Map<String, String> checksums = new HashMap<>();
    long[] round = {1};
    Step step =
        () -> {
          int index = (int) (round[0] * 97 % store.memoryIds().size());
          String id = store.memoryIds().get(index);
          String target = "/v1/memory_stores/" + store.storeId() + "/memories/" + id;
          String current = checksums.get(id);
          if (current == null) {
            RawHttpConnection.Reply read =
                connection.send("GET", target + "?view=basic", storeHeaders(), null, true);
            expectOk(read.status());
            current = ProtocolJson.mapper().readTree(read.body()).get("content_sha256").asText();
          }
          Map<String, Object> body = new LinkedHashMap<>();
          body.put("content", content(worker, index, round[0]++));
          body.put("precondition", Map.of("type", "content_sha256", "content_sha256", current));
          RawHttpConnection.Reply reply =
              connection.send(
                  "POST",
                  target + "?view=basic",
                  Map.of("Authorization", "Bearer " + TOKEN, "Content-Type", "application/json"),
                  ProtocolJson.mapper().writeValueAsBytes(body),
                  true);
          expectOk(reply.status());
          checksums.put(
              id, ProtocolJson.mapper().readTree(reply.body()).get("content_sha256").asText());
        };
    return new Worker(step, connection);
  }

  private static final String STORE_ROW =
      "SELECT id, store_id, slug, store_name, store_description, store_metadata, created_at,"
          + " store_updated_at, archived_at FROM repository WHERE store_id = ?";

  private static final String MEMORY_COLUMNS =
      "e.memory_id, e.entry_key, e.checksum, e.size_bytes, e.created_at, e.updated_at, %s,"
          + " (SELECT max(v.id) FROM memory_entry_version v"
          + "  WHERE v.repository_id = e.repository_id AND v.memory_id = e.memory_id"
          + "  AND v.redacted_at IS NULL)";

  /** The store's row, as every store request reads it first; its repository id. */
  private static long storeRow(Connection connection, String storeId) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(STORE_ROW)) {
      statement.setString(1, storeId);
      try (ResultSet row = statement.executeQuery()) {
        row.next();
        for (int column = 2; column <= 9; column++) {
          row.getObject(column);
        }
        return row.getLong(1);
      }
    }
  }

  private Worker postgresRetrieve(int worker) throws SQLException {
    Connection connection = connect(true);
    StoreMemories store = stores.get(0);
    int[] next = {worker * 61};
    // The store row and the memory in one statement, as the server reads them.
    String sql =
        "SELECT r.id, r.store_id, r.slug, r.store_name, r.store_description, r.store_metadata,"
            + " r.created_at, r.store_updated_at, r.archived_at, "
            + MEMORY_COLUMNS.formatted("e.content")
            + " FROM repository r LEFT JOIN memory_entry e"
            + " ON e.repository_id = r.id AND e.memory_id = ? AND NOT e.deleted"
            + " WHERE r.store_id = ?";
    Step step =
        () -> {
          String id = store.memoryIds().get(next[0]++ % store.memoryIds().size());
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, id);
            statement.setString(2, store.storeId());
            try (ResultSet rows = statement.executeQuery()) {
              while (rows.next()) {
                for (int column = 1; column <= 17; column++) {
                  rows.getObject(column);
                }
              }
            }
          }
        };
    return new Worker(step, connection);
  }

  private Worker postgresList(int worker) throws SQLException {
    Connection connection = connect(true);
    StoreMemories store = stores.get(0);
    String sql =
        "SELECT "
            + MEMORY_COLUMNS.formatted("NULL")
            + " FROM memory_entry e"
            + " WHERE e.repository_id = ? AND NOT e.deleted AND e.entry_key COLLATE \"C\" > ?"
            + " ORDER BY e.entry_key COLLATE \"C\" LIMIT 101";
    String[] after = {""};
    Step step =
        () -> {
          long repository = storeRow(connection, store.storeId());
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, repository);
            statement.setString(2, after[0]);
            int count = 0;
            String last = "";
            try (ResultSet rows = statement.executeQuery()) {
              while (rows.next()) {
                if (++count <= 100) {
                  last = rows.getString(2);
                  for (int column = 3; column <= 8; column++) {
                    rows.getObject(column);
                  }
                }
              }
            }
            after[0] = count > 100 ? last : "";
          }
        };
    return new Worker(step, connection);
  }

  /**
   * What a precondition update does: lock the store's repository, read the memory, compare its
   * checksum, write the content, keep the version, and advance the repository (its checksum is that
   * of every live entry, so they are read, as the server does).
   */
  private Worker postgresUpdate(int worker) throws SQLException {
    Connection connection = connect(false);
    StoreMemories store = stores.get(worker);
    long[] round = {1_000_000};
    Step step =
        () -> {
          int index = (int) (round[0] * 97 % store.memoryIds().size());
          String id = store.memoryIds().get(index);
          String content = content(worker, index, round[0]++);
          long repository;
          long version;
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT id, version FROM repository WHERE store_id = ? FOR UPDATE")) {
            statement.setString(1, store.storeId());
            try (ResultSet row = statement.executeQuery()) {
              row.next();
              repository = row.getLong(1);
              version = row.getLong(2);
            }
          }
          String key;
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT entry_key, checksum FROM memory_entry"
                      + " WHERE repository_id = ? AND memory_id = ? AND NOT deleted")) {
            statement.setLong(1, repository);
            statement.setString(2, id);
            try (ResultSet row = statement.executeQuery()) {
              row.next();
              key = row.getString(1);
              row.getString(2);
            }
          }
          String checksum = Checksums.ofContent(content);
          long next = version + 1;
          Timestamp now = Timestamp.from(Instant.now());
          try (PreparedStatement update =
              connection.prepareStatement(
                  "UPDATE memory_entry SET content = ?, checksum = ?, size_bytes = ?, version = ?,"
                      + " updated_at = ?, updated_by = 'benchmark'"
                      + " WHERE repository_id = ? AND memory_id = ?")) {
            update.setString(1, content);
            update.setString(2, checksum);
            update.setInt(3, content.getBytes(UTF_8).length);
            update.setLong(4, next);
            update.setTimestamp(5, now);
            update.setLong(6, repository);
            update.setString(7, id);
            update.executeUpdate();
          }
          try (PreparedStatement history =
              connection.prepareStatement(
                  "INSERT INTO memory_entry_version (repository_id, entry_key, version, content,"
                      + " checksum, deleted, author, created_at, memory_id, operation)"
                      + " VALUES (?, ?, ?, ?, ?, FALSE, 'benchmark', ?, ?, 'modified')")) {
            history.setLong(1, repository);
            history.setString(2, key);
            history.setLong(3, next);
            history.setString(4, content);
            history.setString(5, checksum);
            history.setTimestamp(6, now);
            history.setString(7, id);
            history.executeUpdate();
          }
          Map<String, String> checksums = new HashMap<>();
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT entry_key, checksum FROM memory_entry"
                      + " WHERE repository_id = ? AND NOT deleted")) {
            statement.setLong(1, repository);
            try (ResultSet rows = statement.executeQuery()) {
              while (rows.next()) {
                checksums.put(rows.getString(1), rows.getString(2));
              }
            }
          }
          try (PreparedStatement advance =
              connection.prepareStatement(
                  "UPDATE repository SET version = ?, checksum = ?, last_modified = ?"
                      + " WHERE id = ?")) {
            advance.setLong(1, next);
            advance.setString(2, Checksums.ofRepository(checksums));
            advance.setTimestamp(3, now);
            advance.setLong(4, repository);
            advance.executeUpdate();
          }
          connection.commit();
        };
    return new Worker(step, connection);
  }

  // ---------------------------------------------------------------------- PostgreSQL alone

  private Worker postgresHashes(int worker) throws SQLException {
    Connection connection = connect(true);
    return new Worker(() -> readDirectly(connection, repo(0), false), connection);
  }

  private Worker postgresGet(int worker) throws SQLException {
    Connection connection = connect(true);
    return new Worker(() -> readDirectly(connection, repo(0), true), connection);
  }

  /**
   * What the server's read runs (RepositoryReader): for the hashes view one statement, the row and
   * its entries; for the full GET the row, then the entries and their checksums.
   */
  private static void readDirectly(Connection connection, String repo, boolean contents)
      throws SQLException {
    if (contents) {
      readSnapshotDirectly(connection, repo);
      return;
    }
    try (PreparedStatement statement = connection.prepareStatement(HASHES)) {
      statement.setString(1, repo.toLowerCase(Locale.ROOT));
      statement.setString(2, repo.toLowerCase(Locale.ROOT));
      Map<String, String> read = new LinkedHashMap<>();
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        rows.getLong(3);
        rows.getString(4);
        while (rows.next()) {
          read.put(rows.getString(6), contents ? rows.getString(9) : rows.getString(7));
          rows.getBoolean(8);
        }
      }
    }
  }

  private static void readSnapshotDirectly(Connection connection, String repo) throws SQLException {
    long id;
    try (PreparedStatement statement = connection.prepareStatement(HEAD)) {
      statement.setString(1, repo.toLowerCase(Locale.ROOT));
      try (ResultSet row = statement.executeQuery()) {
        row.next();
        id = row.getLong(1);
        row.getString(4);
      }
    }
    Map<String, String> read = new LinkedHashMap<>();
    try (PreparedStatement statement = connection.prepareStatement(SNAPSHOT_ENTRIES)) {
      statement.setLong(1, id);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          read.put(rows.getString(1), rows.getString(2));
        }
      }
    }
    for (boolean deleted : new boolean[] {false, true}) {
      try (PreparedStatement statement = connection.prepareStatement(CHECKSUMS)) {
        statement.setLong(1, id);
        statement.setBoolean(2, deleted);
        try (ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            read.put(rows.getString(1), rows.getString(2));
          }
        }
      }
    }
  }

  private Worker postgresPut(int worker) throws SQLException {
    Connection connection = connect(false);
    long[] round = {1_000_000};
    Step step =
        () -> {
          Map<String, String> entries = new LinkedHashMap<>();
          for (int entry = 0; entry < PUT_ENTRIES; entry++) {
            entries.put(
                "topics/entry-" + (entry * 97 + round[0]) % ENTRIES + ".md",
                content(worker, entry, round[0]));
          }
          round[0]++;
          writeDirectly(connection, repo(worker), entries);
        };
    return new Worker(step, connection);
  }

  /** What the server's PUT does: lock, read the checksums, upsert, keep history, advance. */
  private static void writeDirectly(Connection connection, String repo, Map<String, String> entries)
      throws SQLException {
    long id;
    long version;
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT * FROM repository WHERE slug_key = ? FOR UPDATE")) {
      statement.setString(1, repo.toLowerCase(Locale.ROOT));
      try (ResultSet row = statement.executeQuery()) {
        row.next();
        id = row.getLong("id");
        version = row.getLong("version");
      }
    }
    Map<String, String> checksums = new HashMap<>();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT entry_key, checksum, size_bytes, deleted FROM memory_entry"
                + " WHERE repository_id = ? ORDER BY entry_key COLLATE \"C\"")) {
      statement.setLong(1, id);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          checksums.put(rows.getString(1), rows.getString(2));
        }
      }
    }
    long next = version + 1;
    Timestamp now = Timestamp.from(Instant.now());
    try (PreparedStatement upsert =
            connection.prepareStatement(
                "INSERT INTO memory_entry (repository_id, entry_key, content, checksum,"
                    + " size_bytes, version, deleted, updated_at, updated_by)"
                    + " VALUES (?, ?, ?, ?, ?, ?, FALSE, ?, 'benchmark')"
                    + " ON CONFLICT (repository_id, entry_key) DO UPDATE SET"
                    + " content = excluded.content, checksum = excluded.checksum,"
                    + " size_bytes = excluded.size_bytes, version = excluded.version,"
                    + " deleted = FALSE, updated_at = excluded.updated_at,"
                    + " updated_by = excluded.updated_by");
        PreparedStatement history =
            connection.prepareStatement(
                "INSERT INTO memory_entry_version (repository_id, entry_key, version, content,"
                    + " checksum, deleted, author, created_at)"
                    + " VALUES (?, ?, ?, ?, ?, FALSE, 'benchmark', ?)")) {
      for (Map.Entry<String, String> entry : entries.entrySet()) {
        String checksum = Checksums.ofContent(entry.getValue());
        checksums.put(entry.getKey(), checksum);
        upsert.setLong(1, id);
        upsert.setString(2, entry.getKey());
        upsert.setString(3, entry.getValue());
        upsert.setString(4, checksum);
        upsert.setInt(5, entry.getValue().getBytes(UTF_8).length);
        upsert.setLong(6, next);
        upsert.setTimestamp(7, now);
        upsert.addBatch();
        history.setLong(1, id);
        history.setString(2, entry.getKey());
        history.setLong(3, next);
        history.setString(4, entry.getValue());
        history.setString(5, checksum);
        history.setTimestamp(6, now);
        history.addBatch();
      }
      upsert.executeBatch();
      history.executeBatch();
    }
    try (PreparedStatement statement =
        connection.prepareStatement(
            "UPDATE repository SET version = ?, checksum = ?, last_modified = ? WHERE id = ?")) {
      statement.setLong(1, next);
      statement.setString(2, Checksums.ofRepository(checksums));
      statement.setTimestamp(3, now);
      statement.setLong(4, id);
      statement.executeUpdate();
    }
    try (PreparedStatement statement = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
      statement.setString(1, "team_memory_changed");
      statement.setString(2, repo.toLowerCase(Locale.ROOT));
      statement.executeQuery().close();
    }
    connection.commit();
  }

  private Connection connect(boolean autoCommit) throws SQLException {
    Connection connection = java.sql.DriverManager.getConnection(jdbcUrl);
    connection.setAutoCommit(autoCommit);
    return connection;
  }

  // ------------------------------------------------------------------------------ measuring

  /** One request of one client; called in a loop on its own thread. */
  private interface Step {
    void once() throws Exception;
  }

  /** One client: a request it repeats, and the connection it holds. */
  private record Worker(Step step, AutoCloseable connection) {
    void once() throws Exception {
      step.once();
    }

    void close() throws Exception {
      connection.close();
    }
  }

  @FunctionalInterface
  private interface WorkerFactory {
    Worker create(int worker) throws Exception;
  }

  /**
   * Alternates slices of the server and of PostgreSQL alone, so that both meet the same machine:
   * other work on it (a build, say) slows both alike instead of skewing the ratio.
   */
  private String[] compare(String name, WorkerFactory server, WorkerFactory postgres)
      throws Exception {
    double[] rates = alternate(server, postgres);
    double serverRate = rates[0];
    double directRate = rates[1];
    System.out.printf(
        Locale.ROOT,
        "%-34s server %8.0f req/s   PostgreSQL alone %8.0f req/s   ratio %.2f%n",
        name,
        serverRate,
        directRate,
        serverRate / directRate);
    return new String[] {
      name,
      String.format(Locale.ROOT, "%.0f", serverRate),
      String.format(Locale.ROOT, "%.0f", directRate),
      String.format(Locale.ROOT, "%.2f", serverRate / directRate)
    };
  }

  /** Requests per second of each side, measured in ROUNDS alternating slices. */
  private double[] alternate(WorkerFactory first, WorkerFactory second) throws Exception {
    long[] firstTotal = new long[2];
    long[] secondTotal = new long[2];
    Duration slice = measure.dividedBy(ROUNDS);
    for (int round = 0; round < ROUNDS; round++) {
      Duration warm = Duration.ofSeconds(1);
      add(firstTotal, throughput(first, warm, slice));
      add(secondTotal, throughput(second, warm, slice));
    }
    return new double[] {
      firstTotal[0] / (firstTotal[1] / 1e9), secondTotal[0] / (secondTotal[1] / 1e9)
    };
  }

  /**
   * What GitHub authentication costs per request once its caches are warm: the hashes probe with
   * the GitHub token against the same probe with the static token, on the same server, alternating
   * like {@link #compare}. A GitHub token costs a lookup in quarkus-oidc's token cache and one
   * {@code repo_access} SELECT for the permission; the static token costs neither.
   *
   * <p>The fake GitHub's calls are counted over the comparison (slices and their one-second
   * warm-ups): about zero shows the two caches hold. The GitHub side warms up right before, so that
   * its first calls fall outside, and the cached entries (TMEM_AUTH_GITHUB_CACHE_TTL, 3 minutes)
   * expire inside only when {@code bench.seconds} is above a minute or so.
   */
  private AuthenticationCost compareAuthentication() throws Exception {
    int userCallsBefore = gitHub.userCalls();
    int repositoryCallsBefore = gitHub.repositoryCalls();
    System.out.printf("Warming up the GitHub-token path for %d s…%n", warmUp.toSeconds());
    throughput(this::serverHashesWithGitHubToken, warmUp, Duration.ZERO);
    System.out.printf(
        "GitHub was asked during that warm-up: /user %d times, /repos %d times%n",
        gitHub.userCalls() - userCallsBefore, gitHub.repositoryCalls() - repositoryCallsBefore);
    int userCalls = gitHub.userCalls();
    int repositoryCalls = gitHub.repositoryCalls();
    double[] rates = alternate(this::serverHashes, this::serverHashesWithGitHubToken);
    AuthenticationCost cost =
        new AuthenticationCost(
            rates[0],
            rates[1],
            gitHub.userCalls() - userCalls,
            gitHub.repositoryCalls() - repositoryCalls);
    System.out.printf(
        Locale.ROOT,
        "%-34s static token %8.0f req/s   GitHub token %8.0f req/s   ratio %.2f"
            + "   GitHub asked: /user %d, /repos %d%n",
        "hashes probe, by token",
        cost.staticRate(),
        cost.gitHubRate(),
        cost.gitHubRate() / cost.staticRate(),
        cost.userCalls(),
        cost.repositoryCalls());
    return cost;
  }

  /** Requests per second with each kind of token, and GitHub's calls while they were measured. */
  private record AuthenticationCost(
      double staticRate, double gitHubRate, int userCalls, int repositoryCalls) {}

  private static void add(long[] total, long[] slice) {
    total[0] += slice[0];
    total[1] += slice[1];
  }

  /** Requests completed by CONCURRENCY clients in {@code slice} after {@code warm}; and nanos. */
  private long[] throughput(WorkerFactory factory, Duration warm, Duration slice) throws Exception {
    List<Worker> workers = new ArrayList<>();
    for (int worker = 0; worker < CONCURRENCY; worker++) {
      workers.add(factory.create(worker));
    }
    ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY);
    try {
      AtomicBoolean counting = new AtomicBoolean(false);
      AtomicBoolean running = new AtomicBoolean(true);
      List<Future<Long>> counts = new ArrayList<>();
      for (Worker worker : workers) {
        counts.add(
            pool.submit(
                () -> {
                  long done = 0;
                  while (running.get()) {
                    worker.once();
                    if (counting.get()) {
                      done++;
                    }
                  }
                  worker.close();
                  return done;
                }));
      }
      Thread.sleep(warm.toMillis());
      counting.set(true);
      long start = System.nanoTime();
      Thread.sleep(slice.toMillis());
      counting.set(false);
      long elapsed = System.nanoTime() - start;
      running.set(false);
      long total = 0;
      for (Future<Long> count : counts) {
        total += count.get();
      }
      return new long[] {total, elapsed};
    } finally {
      pool.shutdownNow();
    }
  }

  private static void print(List<String[]> rows) {
    System.out.println();
    System.out.println(
        "| operation (16 clients, 1,000 entries of ~1 KB) | server req/s | PostgreSQL alone"
            + " req/s | server / PostgreSQL |");
    System.out.println("|---|---:|---:|---:|");
    for (String[] row : rows) {
      System.out.printf("| %s | %s | %s | %s |%n", row[0], row[1], row[2], row[3]);
    }
  }

  private static void printAuthentication(AuthenticationCost cost) {
    System.out.println();
    System.out.println(
        "| hashes probe (16 clients) | static token req/s | GitHub token req/s | GitHub / static |"
            + " GitHub calls meanwhile (/user, /repos) |");
    System.out.println("|---|---:|---:|---:|---:|");
    System.out.printf(
        Locale.ROOT,
        "| hashes probe | %.0f | %.0f | %.2f | %d, %d |%n",
        cost.staticRate(),
        cost.gitHubRate(),
        cost.gitHubRate() / cost.staticRate(),
        cost.userCalls(),
        cost.repositoryCalls());
  }
}
