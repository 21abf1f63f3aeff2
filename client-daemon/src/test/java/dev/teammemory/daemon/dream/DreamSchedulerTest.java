package dev.teammemory.daemon.dream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.testing.Conditions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's consolidation timer, on a real memory folder, read through its log records. */
class DreamSchedulerTest {

  private static final String BODY = "Use bun instead of npm for installs and scripts.\n";

  @TempDir Path home;

  private final Map<String, String> variables = new HashMap<>();
  private final List<LogRecord> records = new CopyOnWriteArrayList<>();
  private final Logger logger = Logger.getLogger(DreamScheduler.class.getName());
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          records.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private Level levelBefore;
  private Path project;
  private Path memory;
  private Path sessions;
  private Path lock;

  @BeforeEach
  void machine() throws IOException {
    project = Files.createDirectories(home.resolve("app"));
    variables.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
    variables.put("XDG_STATE_HOME", home.resolve("state").toString());
    memory = MemoryLocation.resolve(environment()).directory();
    sessions = memory.getParent();
    lock = memory.resolve(ConsolidationLock.FILE_NAME);
    Files.createDirectories(memory);
    levelBefore = logger.getLevel();
    logger.setLevel(Level.FINE);
    capture.setLevel(Level.ALL);
    logger.addHandler(capture);
  }

  @AfterEach
  void restoreLogger() {
    logger.removeHandler(capture);
    logger.setLevel(levelBefore);
  }

  private Environment environment() {
    return new Environment(variables, home, project);
  }

  private DreamScheduler scheduler(Duration interval) {
    return new DreamScheduler(
        List.of(environment()),
        new OfflineLanguageModel("test"),
        SecretGuard.withDefaultRules(),
        Clock.systemUTC(),
        interval);
  }

  /** Two feedback memories with the same body, the kind of thing offline consolidation merges. */
  private Path duplicatedMemory() throws IOException {
    memory("feedback_bun.md", Duration.ofHours(1));
    return memory("feedback_bun_copy.md", Duration.ofHours(5));
  }

  private Path memory(String name, Duration age) throws IOException {
    Path file = memory.resolve(name);
    Files.writeString(
        file, "---\nname: " + name + "\ndescription: bun\ntype: feedback\n---\n\n" + BODY);
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    return file;
  }

  /** Session transcripts are named by their session id, a UUID. */
  private static String sessionId(int number) {
    return String.format("00000000-0000-4000-8000-%012d", number);
  }

  private void sessionsTouched(int count) throws IOException {
    for (int i = 0; i < count; i++) {
      Files.writeString(sessions.resolve(sessionId(i) + ".jsonl"), "{}\n");
    }
  }

  private Instant lastConsolidated(Duration ago) throws IOException {
    Files.writeString(lock, "");
    Instant at = Instant.now().minus(ago).truncatedTo(ChronoUnit.SECONDS);
    Files.setLastModifiedTime(lock, FileTime.from(at));
    return at;
  }

  private List<String> messages() {
    return records.stream().map(LogRecord::getMessage).toList();
  }

  @Test
  void theRunningSchedulerConsolidatesDueMemoryAndLogsEachPhase() throws IOException {
    Path copy = duplicatedMemory();
    sessionsTouched(6);
    Instant before = lastConsolidated(Duration.ofDays(2));
    String where = " [" + memory + "]";

    try (DreamScheduler scheduler = scheduler(Duration.ofMillis(50))) {
      scheduler.start();
      Conditions.await(
          "the daemon's log to report a finished consolidation (so far " + messages() + ")",
          Duration.ofSeconds(30),
          () -> messages().stream().anyMatch(message -> message.startsWith("dream: completed")));
    }

    assertThat(copy).doesNotExist();
    assertThat(memory.resolve("feedback_bun.md")).content().endsWith(BODY);
    assertThat(memory.resolve("MEMORY.md")).content().contains("(feedback_bun.md)");
    assertThat(Files.getLastModifiedTime(lock).toInstant()).isAfter(before);
    assertThat(messages())
        .containsSubsequence(
            "dream: phase 1/4 orient (sessions since the last consolidation: 6)" + where,
            "dream: phase 2/4 gather" + where,
            "dream: phase 3/4 consolidate" + where,
            "dream: phase 4/4 prune and index" + where,
            "dream: completed by offline consolidation: 2 changes" + where);
    assertThat(records)
        .filteredOn(record -> record.getMessage().startsWith("dream: phase"))
        .allSatisfy(record -> assertThat(record.getLevel()).isEqualTo(Level.INFO));
    assertThat(messages()).noneMatch(message -> message.contains("bun instead of npm"));
  }

  @Test
  void withFewerThanFiveSessionsSinceTheLastConsolidationNothingRuns() throws IOException {
    Path copy = duplicatedMemory();
    sessionsTouched(4);
    Instant before = lastConsolidated(Duration.ofDays(2));

    try (DreamScheduler scheduler = scheduler(DreamScheduler.CHECK_INTERVAL)) {
      scheduler.consolidateDue();
    }

    assertThat(copy).exists();
    assertThat(memory.resolve("MEMORY.md")).doesNotExist();
    assertThat(Files.getLastModifiedTime(lock).toInstant()).isEqualTo(before);
    assertThat(messages())
        .containsExactly(
            "dream: not due: 4 other sessions since the last consolidation; 5 are needed ["
                + memory
                + "]");
    assertThat(records.getFirst().getLevel()).isEqualTo(Level.FINE);
  }

  @Test
  void inDailyLogModeTheDaemonLeavesConsolidationToTmemDreamNow() throws IOException {
    variables.put("TMEM_DAILY_LOG", "1");
    Path copy = duplicatedMemory();
    sessionsTouched(6);
    Instant before = lastConsolidated(Duration.ofDays(2));

    try (DreamScheduler scheduler = scheduler(DreamScheduler.CHECK_INTERVAL)) {
      scheduler.consolidateDue();
    }

    assertThat(copy).exists();
    assertThat(Files.getLastModifiedTime(lock).toInstant()).isEqualTo(before);
    assertThat(messages())
        .containsExactly(
            "dream: not due: daily-log mode is on: its logs are consolidated only by tmem dream"
                + " --now ["
                + memory
                + "]");
  }

  @Test
  void aMemoryFolderThatIsAFileIsLoggedInWordsNotByExceptionClass() throws IOException {
    sessionsTouched(6);
    Files.delete(memory);
    Files.writeString(memory, "not a folder");

    try (DreamScheduler scheduler = scheduler(DreamScheduler.CHECK_INTERVAL)) {
      scheduler.consolidateDue();
    }

    assertThat(messages())
        .containsExactly(
            "dream: could not check whether consolidation is due ("
                + memory
                + " already exists) ["
                + memory
                + "]");
  }
}
