package dev.teammemory.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.PutResponse;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.protocol.suite.SuiteConfig;
import dev.teammemory.server.github.FakeGitHub;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Boots the packaged server jar as an operator runs it ({@code java -jar quarkus-run.jar}, on the
 * embedded PostgreSQL unless {@code TMEM_TEST_JDBC_URL} names a server) and runs the whole protocol
 * test suite of {@code shared-protocol} against it, in this JVM: once with static tokens and once
 * with GitHub users, on one server that knows both (each start costs seconds of CPU, and a build
 * runs many), then restarts it on the same data.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProtocolSuiteIT {

  private static final String OWNER = "protocol-suite";
  private static final String SUITE_PACKAGE = "dev.teammemory.protocol.suite";

  /** Small, so that the entry-cap and repository-size tests run in seconds. */
  private static final int MAX_ENTRIES = 40;

  private static final long MAX_REPOSITORY_BYTES = 3_000_000;

  /** Fewer tests than this means the suite was not found or lost tests on the way. */
  private static final int MINIMUM_SUITE_TESTS = 150;

  private static final Duration STARTUP_DEADLINE = Duration.ofMinutes(3);
  private static final Duration SHUTDOWN_DEADLINE = Duration.ofMinutes(1);

  @TempDir static Path work;

  /** The tokens of the server's static tokens file. */
  private static final Tokens STATIC_TOKENS = Tokens.random();

  /** Tokens the file does not hold: GitHub's users, whose every permission GitHub answers. */
  private static final Tokens GITHUB_TOKENS = Tokens.random();

  private static final List<AutoCloseable> cleanup = new ArrayList<>();

  private static ServerProcess server;

  @BeforeAll
  static void startTheServer() throws IOException {
    FakeGitHub gitHub = new FakeGitHub();
    gitHub.addUser(GITHUB_TOKENS.writer(), "suite-writer", 101);
    gitHub.addUser(GITHUB_TOKENS.reader(), "suite-reader", 102);
    gitHub.addUser(GITHUB_TOKENS.outsider(), "suite-outsider", 103);
    gitHub.grant("suite-writer", OWNER + "/*", "write");
    gitHub.grant("suite-reader", OWNER + "/*", "read");
    gitHub.grant("suite-outsider", "someone-else/*", "write");
    Path tokensFile = work.resolve("tokens.txt");
    Files.writeString(tokensFile, STATIC_TOKENS.file(), UTF_8);
    server = start("suite", tokensFile, gitHub);
  }

  @AfterAll
  static void stopEverything() throws Exception {
    Exception first = null;
    for (AutoCloseable resource : cleanup.reversed()) {
      try {
        resource.close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Test
  @Order(1)
  void thePackagedServerPassesTheProtocolSuite() {
    assertPasses(
        SuiteRun.run("Protocol suite", SUITE_PACKAGE, suiteProperties(server.url(), STATIC_TOKENS)),
        server);
  }

  /**
   * The same suite with GitHub users instead of static tokens: the server verifies every token and
   * reads every permission from (a fake of) GitHub's API.
   */
  @Test
  @Order(2)
  void thePackagedServerPassesTheProtocolSuiteWithGitHubTokens() {
    assertPasses(
        SuiteRun.run(
            "Protocol suite (GitHub)", SUITE_PACKAGE, suiteProperties(server.url(), GITHUB_TOKENS)),
        server);
  }

  private static void assertPasses(TestExecutionSummary summary, ServerProcess server) {
    List<String> failures = new ArrayList<>();
    for (TestExecutionSummary.Failure failure : summary.getFailures()) {
      failures.add(
          SuiteRun.testName(failure.getTestIdentifier(), SUITE_PACKAGE)
              + ": "
              + failure.getException());
    }
    if (!failures.isEmpty()) {
      // The temporary directory goes with the test; the end of the log stays in the build output.
      System.out.println("End of the server's log:\n" + server.tail());
    }
    assertThat(failures).as("protocol suite failures against the packaged server").isEmpty();
    assertThat(summary.getTestsSucceededCount())
        .as("tests of the protocol suite that ran and passed")
        .isGreaterThanOrEqualTo(MINIMUM_SUITE_TESTS);
    assertThat(summary.getTestsSkippedCount() + summary.getTestsAbortedCount())
        .as("our server implements every extension, so no suite test is skipped")
        .isZero();
  }

  @Test
  @Order(3)
  void aRepositoryWrittenBeforeARestartIsStillThereAfterIt() throws Exception {
    String repo = OWNER + "/restart-" + randomHex(6);
    Map<String, String> entries = Map.of("MEMORY.md", "# Team memory\n", "notes/a.md", "kept\n");

    String checksum;
    try (TeamMemoryClient client = client(server)) {
      Response<PutResponse> written = client.put(repo, entries, Optional.empty());
      assertThat(written).isInstanceOf(Response.Ok.class);
      checksum = ((Response.Ok<PutResponse>) written).body().checksum();
    }
    server.close();

    server = start("after-restart", work.resolve("tokens.txt"), new FakeGitHub());
    try (TeamMemoryClient client = client(server)) {
      Response<RepositorySnapshot> read = client.fetch(repo, Optional.empty());
      assertThat(read).as("after the restart").isInstanceOf(Response.Ok.class);
      RepositorySnapshot snapshot = ((Response.Ok<RepositorySnapshot>) read).body();
      assertThat(snapshot.checksum()).isEqualTo(checksum);
      assertThat(snapshot.content().entries()).isEqualTo(entries);
      assertThat(snapshot.version()).isEqualTo(1);
    }
  }

  @Test
  void aMisconfiguredServerStopsAtBootWithOneClearLineAndNoStackTrace() throws Exception {
    Path tokensFile = work.resolve("broken-tokens.txt");
    Files.writeString(tokensFile, "secret-token-value alice acme/widgets owner\n", UTF_8);
    ServerProcess brokenFile =
        launch(Map.of("TMEM_AUTH_STATIC_TOKENS_FILE", tokensFile.toString()), "broken-file");
    ServerProcess slashedUrl =
        launch(
            Map.of(
                "TMEM_AUTH_GITHUB_CLIENT_ID", "Iv1.suite0client0id",
                "TMEM_AUTH_GITHUB_API_URL", "https://ghe.example.com/api/v3/"),
            "slashed-url");

    assertThat(brokenFile.awaitExit(STARTUP_DEADLINE)).isNotZero();
    assertThat(brokenFile.log())
        .contains(
            "static tokens file "
                + tokensFile
                + ", line 1: ACCESS must be read, write, review or admin")
        .doesNotContain("secret-token-value")
        .doesNotContain("\tat ");
    assertThat(slashedUrl.awaitExit(STARTUP_DEADLINE)).isNotZero();
    assertThat(slashedUrl.log())
        .contains("TMEM_AUTH_GITHUB_API_URL must not end with '/': https://ghe.example.com/api/v3/")
        .doesNotContain("\tat ");
  }

  /** The random tokens of one test: a writer and a reader of the owner, and an outsider. */
  private record Tokens(String writer, String reader, String outsider) {

    static Tokens random() {
      return new Tokens(
          "writer-" + randomHex(16), "reader-" + randomHex(16), "out-" + randomHex(16));
    }

    String file() {
      return String.join(
          "\n",
          "# TOKEN USER REPOS ACCESS, written by ProtocolSuiteIT",
          writer + " suite-writer " + OWNER + "/* write",
          reader + " suite-reader " + OWNER + "/* read",
          outsider + " suite-outsider someone-else/* write",
          "");
    }
  }

  /**
   * Starts the jar with the static tokens file and GitHub login (by {@code gitHub}), the suite's
   * limits and the class's data: the same data directory (or the same database) every time, so a
   * restart finds what the last run wrote.
   */
  private static ServerProcess start(String name, Path tokensFile, FakeGitHub gitHub)
      throws IOException {
    if (!cleanup.contains(gitHub)) {
      cleanup.add(gitHub);
    }
    Path jar = Path.of(requiredProperty("tmem.server.jar"));
    assertThat(jar).as("the packaged server (run mvn -pl server verify)").isRegularFile();

    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("TMEM_AUTH_STATIC_TOKENS_FILE", tokensFile.toString());
    environment.put("TMEM_AUTH_GITHUB_CLIENT_ID", "Iv1.suite0client0id");
    environment.put("TMEM_AUTH_GITHUB_API_URL", gitHub.apiUrl());
    environment.put("TMEM_DATA_DIR", work.resolve("data").toString());
    environment.put("TMEM_LIMITS_MAX_ENTRIES", Integer.toString(MAX_ENTRIES));
    environment.put("TMEM_LIMITS_MAX_REPOSITORY_BYTES", Long.toString(MAX_REPOSITORY_BYTES));
    externalDatabase().ifPresent(url -> environment.put("QUARKUS_DATASOURCE_JDBC_URL", url));

    ServerProcess server =
        ServerProcess.start(
            ServerCommand.of("512m", jar), work.resolve(name + ".log"), environment);
    cleanup.add(server);
    server.awaitReady(STARTUP_DEADLINE);
    return server;
  }

  /** Starts the jar without waiting for it to be ready (it may be meant to fail). */
  private static ServerProcess launch(Map<String, String> authentication, String name)
      throws IOException {
    Path jar = Path.of(requiredProperty("tmem.server.jar"));
    Map<String, String> environment = new LinkedHashMap<>(authentication);
    environment.put("TMEM_DATA_DIR", work.resolve("data-" + name).toString());
    ServerProcess server =
        ServerProcess.start(
            ServerCommand.stoppingAtBoot("512m", jar), work.resolve(name + ".log"), environment);
    cleanup.add(server);
    return server;
  }

  private static ExternalDatabase database;

  /**
   * With {@code TMEM_TEST_JDBC_URL}, a fresh database in that server for this test (dropped after
   * it); without, nothing, and the jar starts its embedded PostgreSQL under {@code TMEM_DATA_DIR}.
   */
  private static Optional<String> externalDatabase() {
    String configured = System.getenv("TMEM_TEST_JDBC_URL");
    if (configured == null || configured.isBlank()) {
      return Optional.empty();
    }
    if (database == null) {
      database = ExternalDatabase.create(configured);
      cleanup.addFirst(database);
    }
    return Optional.of(database.url());
  }

  private static Map<String, String> suiteProperties(URI url, Tokens tokens) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(SuiteConfig.URL, url.toString());
    properties.put(SuiteConfig.OWNER, OWNER);
    properties.put(SuiteConfig.WRITER_TOKEN, tokens.writer());
    properties.put(SuiteConfig.READER_TOKEN, tokens.reader());
    properties.put(SuiteConfig.OUTSIDER_TOKEN, tokens.outsider());
    properties.put(SuiteConfig.MAX_ENTRIES, Integer.toString(MAX_ENTRIES));
    properties.put(SuiteConfig.MAX_REPOSITORY_BYTES, Long.toString(MAX_REPOSITORY_BYTES));
    properties.put(SuiteConfig.EXTENSIONS, "true");
    return properties;
  }

  private static TeamMemoryClient client(ServerProcess server) {
    return new TeamMemoryClient(server.url().toString(), STATIC_TOKENS::writer, "ProtocolSuiteIT");
  }

  private static String requiredProperty(String name) {
    String value = System.getProperty(name);
    assertThat(value)
        .as("system property %s (set by the server's failsafe configuration)", name)
        .isNotBlank();
    return value;
  }

  private static String randomHex(int bytes) {
    byte[] random = new byte[bytes];
    new SecureRandom().nextBytes(random);
    return HexFormat.of().formatHex(random);
  }

  /**
   * The server jar running as a child process. Closing it stops it with SIGTERM (its shutdown hooks
   * stop the embedded PostgreSQL), and then makes sure nothing it started is left running.
   */
  private static final class ServerProcess implements AutoCloseable {

    private final Process process;
    private final URI url;
    private final Path log;
    private final Path postmasterPid;
    private boolean closed;

    private ServerProcess(Process process, URI url, Path log, Path postmasterPid) {
      this.process = process;
      this.url = url;
      this.log = log;
      this.postmasterPid = postmasterPid;
    }

    static ServerProcess start(List<String> command, Path log, Map<String, String> settings)
        throws IOException {
      int port = freePort();
      ProcessBuilder builder = new ProcessBuilder(command);
      // Only what this test sets: a developer's QUARKUS_* or TMEM_* must not leak into the server.
      builder
          .environment()
          .keySet()
          .removeIf(name -> name.startsWith("QUARKUS_") || name.startsWith("TMEM_"));
      builder.environment().putAll(settings);
      builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
      builder.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
      builder.redirectErrorStream(true).redirectOutput(log.toFile());
      Path pid = Path.of(settings.get("TMEM_DATA_DIR"), "postgres", "postmaster.pid");
      return new ServerProcess(builder.start(), URI.create("http://127.0.0.1:" + port), log, pid);
    }

    URI url() {
      return url;
    }

    /** Polls the readiness check until it is UP, the process dies, or the deadline passes. */
    void awaitReady(Duration deadline) {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      HttpRequest ready =
          HttpRequest.newBuilder(url.resolve("/q/health/ready"))
              .timeout(Duration.ofSeconds(5))
              .build();
      Instant giveUp = Instant.now().plus(deadline);
      while (Instant.now().isBefore(giveUp)) {
        try {
          if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return;
          }
        } catch (IOException notYetListening) {
          // The port opens only once Quarkus has started.
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for the server", e);
        }
        try {
          // Waiting for the process to exit doubles as the pause between polls.
          if (process.waitFor(250, TimeUnit.MILLISECONDS)) {
            throw new AssertionError(
                "the server exited with "
                    + process.exitValue()
                    + " before it was ready:\n"
                    + tail());
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for the server", e);
        }
      }
      throw new AssertionError("the server was not ready within " + deadline + ":\n" + tail());
    }

    @Override
    public void close() throws InterruptedException, IOException {
      if (closed) {
        return;
      }
      closed = true;
      List<ProcessHandle> descendants = process.descendants().toList();
      process.destroy();
      if (!process.waitFor(SHUTDOWN_DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(SHUTDOWN_DEADLINE.toSeconds(), TimeUnit.SECONDS);
      }
      for (ProcessHandle descendant : descendants) {
        stop(descendant);
      }
      // pg_ctl detaches PostgreSQL from the server process; its pid file says where it went.
      if (Files.exists(postmasterPid)) {
        String first = Files.readAllLines(postmasterPid, UTF_8).stream().findFirst().orElse("");
        if (first.strip().matches("\\d+")) {
          ProcessHandle.of(Long.parseLong(first.strip())).ifPresent(ServerProcess::stop);
        }
      }
    }

    private static void stop(ProcessHandle handle) {
      if (!handle.isAlive()) {
        return;
      }
      handle.destroy();
      try {
        handle.onExit().get(SHUTDOWN_DEADLINE.toSeconds(), TimeUnit.SECONDS);
      } catch (Exception notStopped) {
        handle.destroyForcibly();
      }
    }

    /** Waits for the process to end by itself; its exit code. */
    int awaitExit(Duration deadline) throws InterruptedException {
      assertThat(process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS))
          .as("the server stopped by itself")
          .isTrue();
      return process.exitValue();
    }

    String log() throws IOException {
      return Files.readString(log, UTF_8);
    }

    String tail() {
      try {
        List<String> lines = Files.readAllLines(log, UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
      } catch (IOException e) {
        return "(no log: " + e.getMessage() + ")";
      }
    }

    private static int freePort() throws IOException {
      try (ServerSocket socket = new ServerSocket(0)) {
        return socket.getLocalPort();
      }
    }
  }

  /** A fresh database in the PostgreSQL server that {@code TMEM_TEST_JDBC_URL} names. */
  private record ExternalDatabase(String adminUrl, String name, String url)
      implements AutoCloseable {

    static ExternalDatabase create(String adminUrl) {
      String name = "tmem_suite_" + UUID.randomUUID().toString().replace("-", "");
      execute(adminUrl, "CREATE DATABASE " + name);
      int query = adminUrl.indexOf('?');
      String base = query < 0 ? adminUrl : adminUrl.substring(0, query);
      String parameters = query < 0 ? "" : adminUrl.substring(query);
      return new ExternalDatabase(
          adminUrl, name, base.substring(0, base.lastIndexOf('/') + 1) + name + parameters);
    }

    @Override
    public void close() {
      execute(adminUrl, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    private static void execute(String adminUrl, String sql) {
      try (Connection connection = DriverManager.getConnection(adminUrl);
          Statement statement = connection.createStatement()) {
        statement.execute(sql);
      } catch (SQLException e) {
        throw new IllegalStateException(
            "TMEM_TEST_JDBC_URL: could not run '" + sql + "': " + e.getMessage(), e);
      }
    }
  }
}
