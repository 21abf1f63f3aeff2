package dev.teammemory.deploy.replicas;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One server process ({@code java -jar quarkus-run.jar}) on a loopback port, with its output in a
 * log file. Starts, waits until ready, stops gracefully or is killed, as a replica behind a load
 * balancer would be.
 */
public final class ServerReplica implements AutoCloseable {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  private final String name;
  private final int port;
  private final Path log;
  private final ProcessBuilder command;
  private Process process;
  private Instant startedAt;

  private ServerReplica(String name, int port, Path log, ProcessBuilder command) {
    this.name = name;
    this.port = port;
    this.log = log;
    this.command = command;
  }

  /**
   * A replica of the server in {@code jar} on {@code database}, its log in {@code logFolder}. It is
   * not started yet.
   *
   * @param settings further environment variables, such as {@code TMEM_AUTH_STATIC_TOKENS_FILE}
   */
  public static ServerReplica of(
      String name, Path jar, String jdbcUrl, Map<String, String> settings, Path logFolder) {
    requireNonNull(name, "name is null");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalArgumentException(
          "no server jar at " + jar + " (build it: ./mvnw -pl server -am package -DskipTests)");
    }
    int port = freePort();
    Path log = logFolder.resolve(name + ".log");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder command =
        new ProcessBuilder(java.toString(), "-Xmx512m", "-jar", jar.toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Map<String, String> environment = command.environment();
    environment.keySet().removeIf(key -> key.startsWith("QUARKUS_") || key.startsWith("TMEM_"));
    environment.put("QUARKUS_HTTP_PORT", Integer.toString(port));
    environment.put("QUARKUS_DATASOURCE_JDBC_URL", jdbcUrl);
    environment.put("QUARKUS_DATASOURCE_USERNAME", "postgres");
    environment.put("QUARKUS_DATASOURCE_PASSWORD", "");
    environment.putAll(settings);
    return new ServerReplica(name, port, log, command);
  }

  /** A port nothing listens on now (the kernel's choice, released at once). */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("could not find a free port", e);
    }
  }

  public String name() {
    return name;
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + port);
  }

  public Path log() {
    return log;
  }

  /** Starts the process; returns at once. */
  public void start() throws IOException {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException(name + " is already running");
    }
    startedAt = Instant.now();
    process = command.start();
  }

  /** Waits until {@code /q/health/ready} answers 200; returns how long since start it took. */
  public Duration awaitReady(Duration timeout) throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name + " exited with code " + process.exitValue() + " while starting; see " + log);
      }
      if (ready()) {
        return Duration.between(startedAt, Instant.now());
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException(name + " was not ready within " + timeout + "; see " + log);
  }

  /** Whether {@code /q/health/ready} answers 200 now. */
  public boolean ready() throws InterruptedException {
    try {
      HttpResponse<Void> response =
          HTTP.send(
              HttpRequest.newBuilder(url().resolve("/q/health/ready"))
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.discarding());
      return response.statusCode() == 200;
    } catch (IOException e) {
      return false;
    }
  }

  public boolean alive() {
    return process != null && process.isAlive();
  }

  /** SIGKILL: the process dies with requests in flight, as in a crash or an OOM kill. */
  public void kill() throws InterruptedException {
    if (alive()) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** SIGTERM, then SIGKILL if it has not stopped within 30 s. */
  public void stop() throws InterruptedException {
    if (alive()) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        kill();
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
