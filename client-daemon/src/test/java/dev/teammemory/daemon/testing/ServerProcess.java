package dev.teammemory.daemon.testing;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real server, started from its packaged jar as a child process (client-daemon never depends on
 * the server module): a free port, its embedded PostgreSQL under a temporary data folder, and a
 * static tokens file. {@link #stop()} and {@link #start()} restart it on the same port and data.
 */
public final class ServerProcess implements AutoCloseable {

  public static final String ALICE = "token-alice";
  public static final String BOB = "token-bob";
  public static final String READER = "token-reader";

  /** erin, an admin of every repository: she may switch a repository's review on. */
  public static final String ADMIN = "token-admin";

  /** dave, who may write every repository of other-org and sees nothing of acme. */
  public static final String OUTSIDER = "token-outsider";

  private static final Pattern POSTGRES_PORT =
      Pattern.compile("started the embedded PostgreSQL on port (\\d+)");

  private final Path jar;
  private final Path dataDir;
  private final Path tokens;
  private final int port;
  private final List<String> extraEnvironment;
  private Process process;
  private Path log;
  private int logNumber;

  private ServerProcess(Path jar, Path dataDir, int port, List<String> extraEnvironment)
      throws IOException {
    this.jar = jar;
    this.dataDir = dataDir;
    this.port = port;
    this.extraEnvironment = List.copyOf(extraEnvironment);
    Files.createDirectories(dataDir);
    this.tokens = dataDir.resolve("tokens.txt");
    Files.writeString(
        tokens,
        ALICE
            + " alice * write\n"
            + BOB
            + " bob * write\n"
            + READER
            + " carol * read\n"
            + OUTSIDER
            + " dave other-org/* write\n"
            + ADMIN
            + " erin * admin\n",
        UTF_8);
  }

  /** Starts the server with its data under {@code dataDir}; {@code extra} is NAME=VALUE pairs. */
  public static ServerProcess start(Path dataDir, String... extra) throws IOException {
    String configured = System.getProperty("tmem.server.jar");
    if (configured == null) {
      throw new IllegalStateException(
          "system property tmem.server.jar is not set: run the ITs through Maven (./mvnw verify)");
    }
    Path jar = Path.of(configured);
    if (!Files.isRegularFile(jar) || Files.size(jar) == 0) {
      throw new IllegalStateException(
          "the server jar "
              + jar
              + " is missing: build the server first with"
              + " ./mvnw -pl server package -DskipTests");
    }
    ServerProcess server = new ServerProcess(jar, dataDir, freePort(), List.of(extra));
    server.start();
    return server;
  }

  public void start() throws IOException {
    log = dataDir.resolve("server-" + (++logNumber) + ".log");
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("-Xmx384m");
    command.addAll(TestJvmOptions.server());
    command.addAll(List.of("-jar", jar.toString()));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
    builder.environment().put("TMEM_DATA_DIR", dataDir.toString());
    builder.environment().put("TMEM_AUTH_STATIC_TOKENS_FILE", tokens.toString());
    for (String pair : extraEnvironment) {
      int equals = pair.indexOf('=');
      builder.environment().put(pair.substring(0, equals), pair.substring(equals + 1));
    }
    process = builder.start();
    awaitReady(Duration.ofSeconds(120));
  }

  private void awaitReady(Duration deadline) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest ready =
        HttpRequest.newBuilder(URI.create(url() + "/q/health/ready"))
            .timeout(Duration.ofSeconds(5))
            .build();
    long end = System.nanoTime() + deadline.toNanos();
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the server exited with " + process.exitValue() + ":\n" + logTail());
      }
      try {
        if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      if (System.nanoTime() > end) {
        throw new IllegalStateException(
            "the server was not ready within " + deadline + ":\n" + logTail());
      }
      java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
    }
  }

  /** The server's process id (benchmarks read its CPU time). */
  public long pid() {
    return process.pid();
  }

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  /** A connection to the server's embedded PostgreSQL (its port is in the server's log). */
  public Connection database() throws SQLException {
    Matcher matcher = POSTGRES_PORT.matcher(readLog());
    if (!matcher.find()) {
      throw new IllegalStateException(
          "the server's log does not name the embedded PostgreSQL's port");
    }
    return DriverManager.getConnection(
        "jdbc:postgresql://localhost:" + matcher.group(1) + "/postgres", "postgres", "");
  }

  /** Stops the server (and with it its PostgreSQL) gracefully, forcibly after 30 s. */
  public void stop() {
    if (process == null) {
      return;
    }
    List<ProcessHandle> descendants = new ArrayList<>(process.descendants().toList());
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (ProcessHandle descendant : descendants) {
      if (descendant.isAlive()) {
        descendant.destroy();
        try {
          descendant.onExit().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
          descendant.destroyForcibly();
        }
      }
    }
    process = null;
  }

  @Override
  public void close() {
    stop();
  }

  private String readLog() {
    try {
      return Files.readString(log, UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log, UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }

  public Optional<Process> process() {
    return Optional.ofNullable(process);
  }
}
