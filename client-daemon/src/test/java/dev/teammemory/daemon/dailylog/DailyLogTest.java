package dev.teammemory.daemon.dailylog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DailyLogTest {

  @TempDir Path home;

  @Test
  void aDaysLogLivesUnderLogsYearMonth() {
    assertThat(DailyLog.file(home, LocalDate.of(2026, 3, 2)))
        .isEqualTo(home.resolve("logs/2026/03/2026-03-02.md"));
  }

  @Test
  void bulletsAreStampedInLocalTimeAndOnlyEverAppended() throws IOException {
    Clock tokyo = Clock.fixed(Instant.parse("2026-03-02T23:30:00Z"), ZoneId.of("Asia/Tokyo"));
    DailyLog log = new DailyLog(home, tokyo);

    log.append(List.of("feedback: use bun"));
    Path file =
        log.append(List.of("user: backend engineer", "project: release freeze\nfrom Friday"));

    assertThat(file).isEqualTo(home.resolve("logs/2026/03/2026-03-03.md"));
    assertThat(Files.readString(file))
        .isEqualTo(
            "# 2026-03-03\n\n- 08:30 feedback: use bun\n- 08:30 user: backend engineer\n- 08:30 project: release freeze from Friday\n");
  }

  @Test
  void concurrentAppendsNeverInterleave() throws Exception {
    DailyLog log = new DailyLog(home, Clock.systemDefaultZone());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Path>> appends = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        String entry = "entry " + i + " " + "x".repeat(500);
        appends.add(pool.submit(() -> log.append(List.of(entry))));
      }
      for (Future<Path> append : appends) {
        append.get();
      }
    } finally {
      pool.shutdown();
    }

    List<String> lines = Files.readAllLines(log.today());
    assertThat(lines.stream().filter(line -> line.startsWith("- ")))
        .hasSize(40)
        .allMatch(line -> line.endsWith("x".repeat(500)));
    assertThat(lines.stream().filter(line -> line.startsWith("# "))).hasSize(1);
  }

  @Test
  void theVariableWinsOverTheSetting() throws IOException {
    Path config = Files.createDirectories(home.resolve(".claude"));
    Files.writeString(config.resolve("settings.json"), "{\"dailyLogMode\": true}");
    Map<String, String> settingOnly = Map.of("CLAUDE_CONFIG_DIR", config.toString());
    Environment fromSetting = new Environment(settingOnly, home, home);
    Environment switchedOff =
        new Environment(
            Map.of("CLAUDE_CONFIG_DIR", config.toString(), "TMEM_DAILY_LOG", "0"), home, home);

    assertThat(DailyLogMode.of(fromSetting, MemoryLocation.resolve(fromSetting)).enabled())
        .isTrue();
    assertThat(DailyLogMode.of(switchedOff, MemoryLocation.resolve(switchedOff)))
        .isEqualTo(new DailyLogMode(false, "TMEM_DAILY_LOG=0"));
  }
}
