package dev.teammemory.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged server ({@code tmem.server.jar}) as an operator starts it, in place, so that it
 * finds the embedded PostgreSQL beside it: a child process on a free loopback port with only the
 * settings a test gives it, its output in a file. Closing it stops the server, which stops its
 * PostgreSQL, and then anything of theirs still running.
 */
public final class PackagedServer implements AutoCloseable {

  private static final Duration STARTUP_DEADLINE = Duration.ofMinutes(3);
  private static final Duration SHUTDOWN_DEADLINE = Duration.ofMinutes(1);

  private final Process process;
  private final URI url;
  private final Path log;
  private final Path postmasterPid;

  private PackagedServer(Process process, URI url, Path log, Path postmasterPid) {
    this.process = process;
    this.url = url;
    this.log = log;
    this.postmasterPid = postmasterPid;
  }

  /** Starts the jar with its data under {@code dataDirectory} and waits until it is ready. */
  public static PackagedServer start(Path dataDirectory, Path log, Map<String, String> settings)
      throws IOException {
    return start(dataDirectory, log, settings, "384m");
  }

  /** The same, with the JVM's heap capped at {@code maxHeap} ({@code -Xmx}, such as "96m"). */
  public static PackagedServer start(
      Path dataDirectory, Path log, Map<String, String> settings, String maxHeap)
      throws IOException {
    return start(dataDirectory, log, settings, ServerCommand.of(maxHeap, jar()));
  }

  /** The packaged jar the build names ({@code tmem.server.jar}). */
  public static Path jar() {
    Path jar = Path.of(System.getProperty("tmem.server.jar", ""));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("no packaged server at " + jar + ": run ./mvnw verify");
    }
    return jar;
  }

  /** The same, started by {@code command} (a Java command line that runs {@link #jar()}). */
  public static PackagedServer start(
      Path dataDirectory, Path log, Map<String, String> settings, List<String> command)
      throws IOException {
    int port = freePort();
    ProcessBuilder builder = new ProcessBuilder(command);
    builder
        .environment()
        .keySet()
        .removeIf(name -> name.startsWith("QUARKUS_") || name.startsWith("TMEM_"));
    builder.environment().putAll(settings);
    builder.environment().put("TMEM_DATA_DIR", dataDirectory.toString());
    builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
    builder.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
    builder.redirectErrorStream(true).redirectOutput(log.toFile());
    PackagedServer server =
        new PackagedServer(
            builder.start(),
            URI.create("http://127.0.0.1:" + port),
            log,
            dataDirectory.resolve("postgres").resolve("postmaster.pid"));
    try {
      server.awaitReady();
    } catch (RuntimeException | Error e) {
      server.close();
      throw e;
    }
    return server;
  }

  public URI url() {
    return url;
  }

  /**
   * The processor time the server has used so far: its JVM's, and that of the PostgreSQL processes
   * it started that still run (initdb and the like are counted in neither).
   */
  public Duration processorTime() throws IOException {
    Map<Long, ProcessHandle> processes = new HashMap<>();
    processes.put(process.pid(), process.toHandle());
    process.descendants().forEach(handle -> processes.put(handle.pid(), handle));
    if (Files.exists(postmasterPid)) {
      String first = Files.readAllLines(postmasterPid, UTF_8).stream().findFirst().orElse("");
      if (first.strip().matches("\\d+")) {
        ProcessHandle.of(Long.parseLong(first.strip()))
            .ifPresent(
                postmaster -> {
                  processes.put(postmaster.pid(), postmaster);
                  postmaster.descendants().forEach(handle -> processes.put(handle.pid(), handle));
                });
      }
    }
    return processes.values().stream()
        .map(PackagedServer::cpu)
        .reduce(Duration.ZERO, Duration::plus);
  }

  private static Duration cpu(ProcessHandle handle) {
    return handle.info().totalCpuDuration().orElse(Duration.ZERO);
  }

  /** Everything the server printed so far. */
  public List<String> logLines() throws IOException {
    return Files.readAllLines(log, UTF_8);
  }

  private void awaitReady() {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest ready =
        HttpRequest.newBuilder(url.resolve("/q/health/ready"))
            .timeout(Duration.ofSeconds(5))
            .build();
    Instant giveUp = Instant.now().plus(STARTUP_DEADLINE);
    try {
      while (Instant.now().isBefore(giveUp)) {
        try {
          if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return;
          }
        } catch (IOException notYetListening) {
          // The port opens only once Quarkus has started.
        }
        // Waiting for the process to exit doubles as the pause between polls.
        if (process.waitFor(250, TimeUnit.MILLISECONDS)) {
          throw new AssertionError(
              "the server exited with " + process.exitValue() + " before it was ready:\n" + tail());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the server", e);
    }
    throw new AssertionError(
        "the server was not ready within " + STARTUP_DEADLINE + ":\n" + tail());
  }

  private String tail() {
    try {
      List<String> lines = logLines();
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() throws IOException {
    List<ProcessHandle> descendants = process.descendants().toList();
    stop(process.toHandle());
    descendants.forEach(PackagedServer::stop);
    // pg_ctl detaches PostgreSQL from the server process; its pid file says where it went.
    if (Files.exists(postmasterPid)) {
      String first = Files.readAllLines(postmasterPid, UTF_8).stream().findFirst().orElse("");
      if (first.strip().matches("\\d+")) {
        ProcessHandle.of(Long.parseLong(first.strip())).ifPresent(PackagedServer::stop);
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

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
