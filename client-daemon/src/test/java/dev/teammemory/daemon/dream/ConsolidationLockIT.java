package dev.teammemory.daemon.dream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.testing.Conditions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The consolidation lock between real processes: separate JVMs racing for one memory folder. */
class ConsolidationLockIT {

  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @TempDir Path home;

  private Path memory;
  private Path guard;
  private Path lockFile;
  private final List<Contender> contenders = new ArrayList<>();

  @BeforeEach
  void memory() throws IOException {
    memory = Files.createDirectories(home.resolve("memory"));
    guard = home.resolve("state/dream/guard");
    lockFile = memory.resolve(ConsolidationLock.FILE_NAME);
  }

  @AfterEach
  void stopContenders() {
    contenders.forEach(contender -> contender.process.destroyForcibly());
  }

  /** One {@link LockContender} process and the lines it printed. */
  private final class Contender {
    final Process process;
    final List<String> lines = new CopyOnWriteArrayList<>();

    Contender(String name, String mode) throws IOException {
      String java =
          ProcessHandle.current()
              .info()
              .command()
              .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      process =
          new ProcessBuilder(
                  java,
                  "-cp",
                  System.getProperty("java.class.path"),
                  LockContender.class.getName(),
                  memory.toString(),
                  guard.toString(),
                  home.resolve("go").toString(),
                  home.resolve("finish-" + name).toString(),
                  mode)
              .redirectErrorStream(true)
              .start();
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader output =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  for (String line = output.readLine(); line != null; line = output.readLine()) {
                    lines.add(line);
                  }
                } catch (IOException closed) {
                  // The process ended.
                }
              },
              "contender-" + name);
      reader.setDaemon(true);
      reader.start();
      contenders.add(this);
    }

    Optional<String> line(String prefix) {
      return lines.stream().filter(line -> line.startsWith(prefix)).findFirst();
    }

    String awaitResult() {
      Conditions.await(
          "a result from process " + process.pid() + " (so far " + lines + ")",
          DEADLINE,
          () -> line("acquired").or(() -> line("held")).or(() -> line("lost")).isPresent());
      return line("acquired").or(() -> line("held")).or(() -> line("lost")).orElseThrow();
    }

    void awaitReady() {
      Conditions.await(
          "process " + process.pid() + " to start (so far " + lines + ")",
          DEADLINE,
          () -> line("ready").isPresent());
    }

    void finishAndWait(String name) throws IOException, InterruptedException {
      Files.writeString(home.resolve("finish-" + name), "");
      assertThat(process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }
  }

  @RepeatedTest(3)
  void twoProcessesRacingForTheLockEndWithExactlyOneHolder() throws Exception {
    Files.writeString(lockFile, "");
    Files.setLastModifiedTime(lockFile, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
    Contender first = new Contender("first", "release");
    Contender second = new Contender("second", "release");
    first.awaitReady();
    second.awaitReady();

    Files.writeString(home.resolve("go"), "");
    String a = first.awaitResult();
    String b = second.awaitResult();

    List<String> results = List.of(a, b);
    assertThat(results.stream().filter(result -> result.startsWith("acquired"))).hasSize(1);
    Contender winner = a.startsWith("acquired") ? first : second;
    Contender loser = winner == first ? second : first;
    assertThat(winner == first ? b : a).isEqualTo("held " + winner.process.pid());
    assertThat(Files.readString(lockFile)).isEqualTo(Long.toString(winner.process.pid()));
    assertThat(loser.process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();

    winner.finishAndWait(winner == first ? "first" : "second");

    assertThat(winner.line("finished")).isPresent();
    assertThat(Files.readString(lockFile)).isEmpty();
    assertThat(Files.getLastModifiedTime(lockFile).toInstant())
        .isAfter(Instant.now().minus(Duration.ofMinutes(5)));
  }

  @Test
  void aLockHeldByAnotherLiveProcessIsReportedWithItsPid() throws Exception {
    Contender holder = new Contender("holder", "release");
    holder.awaitReady();
    Files.writeString(home.resolve("go"), "");
    assertThat(holder.awaitResult()).startsWith("acquired");

    ConsolidationLock.Acquisition here =
        ConsolidationLock.forThisProcess(memory, guard, Clock.systemUTC()).tryAcquire();

    assertThat(here).isInstanceOf(ConsolidationLock.Acquisition.Held.class);
    assertThat(((ConsolidationLock.Acquisition.Held) here).pid()).isEqualTo(holder.process.pid());
    holder.finishAndWait("holder");
  }

  @Test
  void theLockOfACrashedProcessIsTakenOverAtOnce() throws Exception {
    Contender crashing = new Contender("crashing", "crash");
    crashing.awaitReady();
    Files.writeString(home.resolve("go"), "");
    assertThat(crashing.awaitResult()).startsWith("acquired");

    crashing.process.destroyForcibly();
    assertThat(crashing.process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    Conditions.await(
        "the crashed process to be gone",
        DEADLINE,
        () -> !ConsolidationLock.isRunning(crashing.process.pid()));

    ConsolidationLock.Acquisition here =
        ConsolidationLock.forThisProcess(memory, guard, Clock.systemUTC()).tryAcquire();

    assertThat(here).isInstanceOf(ConsolidationLock.Acquisition.Acquired.class);
    assertThat(Files.readString(lockFile)).isEqualTo(Long.toString(ProcessHandle.current().pid()));
  }

  @Test
  void aRunThatFailsInAnotherProcessRollsTheMtimeBack() throws Exception {
    Files.writeString(lockFile, "");
    FileTime prior = FileTime.from(Instant.now().minus(Duration.ofDays(3)));
    Files.setLastModifiedTime(lockFile, prior);
    Contender failing = new Contender("failing", "rollback");
    failing.awaitReady();
    Files.writeString(home.resolve("go"), "");
    assertThat(failing.awaitResult()).isEqualTo("acquired " + prior.toMillis());
    assertThat(Files.getLastModifiedTime(lockFile).toInstant())
        .isAfter(Instant.now().minus(Duration.ofMinutes(5)));

    failing.finishAndWait("failing");

    assertThat(Files.getLastModifiedTime(lockFile).toMillis()).isEqualTo(prior.toMillis());
    assertThat(Files.readString(lockFile)).isEmpty();
  }
}
