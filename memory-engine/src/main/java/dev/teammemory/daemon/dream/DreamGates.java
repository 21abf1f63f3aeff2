package dev.teammemory.daemon.dream;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.memory.MemoryLocation;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether consolidation is due, checked cheapest first as the reference does: is it enabled (no
 * I/O); has it been {@value #MIN_HOURS} hours since the last one (one stat of the lock file); were
 * sessions scanned less than {@value #SCAN_INTERVAL_MINUTES} minutes ago (one small read); have at
 * least {@value #MIN_SESSIONS} other sessions been active since (a directory listing). The lock is
 * the last gate and is taken by {@link Dream}.
 */
public final class DreamGates {

  static final long MIN_HOURS = 24;
  public static final int MIN_SESSIONS = 5;
  static final long SCAN_INTERVAL_MINUTES = 10;

  /** The gates' answer. */
  sealed interface Decision {
    /**
     * @param lastConsolidated the lock file's mtime, or the epoch
     * @param sessions the ids of the sessions touched since, the current one left out
     */
    record Open(Instant lastConsolidated, List<String> sessions) implements Decision {
      public Open {
        requireNonNull(lastConsolidated, "lastConsolidated is null");
        sessions = List.copyOf(sessions);
      }
    }

    record Closed(String reason) implements Decision {
      public Closed {
        requireNonNull(reason, "reason is null");
      }
    }
  }

  /**
   * Why consolidation is switched off, or empty when it is on: auto memory off, daily-log mode (its
   * logs are distilled only on request), or {@code autoDreamEnabled: false}.
   */
  static Optional<String> disabledBy(MemoryLocation location, boolean dailyLog) {
    if (!location.enabled()) {
      return Optional.of("auto memory is off (" + location.disabledBy().orElseThrow() + ")");
    }
    if (dailyLog) {
      return Optional.of(
          "daily-log mode is on: its logs are consolidated only by tmem dream --now");
    }
    return location
        .settings()
        .autoDreamEnabled()
        .filter(setting -> !setting.value())
        .map(setting -> "autoDreamEnabled: false in " + setting.file());
  }

  /**
   * @param force skip the time, throttle and session gates ({@code --now})
   * @param projectDirectories where the agent keeps this project's transcripts
   * @param currentSession the session asking, which does not count
   */
  static Decision check(
      MemoryLocation location,
      boolean dailyLog,
      boolean force,
      ConsolidationLock lock,
      DreamState.Store store,
      Clock clock,
      List<Path> projectDirectories,
      Optional<String> currentSession)
      throws IOException {
    if (!location.enabled()) {
      return new Decision.Closed(disabledBy(location, dailyLog).orElseThrow());
    }
    Optional<String> disabled = disabledBy(location, dailyLog);
    if (disabled.isPresent() && !force) {
      return new Decision.Closed(disabled.get());
    }
    Instant now = clock.instant();
    Instant last = lock.lastConsolidatedAt();
    Duration since = Duration.between(last, now);
    if (!force && since.toHours() < MIN_HOURS) {
      return new Decision.Closed(
          "the last consolidation was "
              + since.toHours()
              + " h ago; the next one is due after "
              + MIN_HOURS
              + " h");
    }
    DreamState state = store.load();
    if (!force && state.lastSessionScan().isPresent()) {
      Duration sinceScan = Duration.between(state.lastSessionScan().get(), now);
      if (sinceScan.toMinutes() < SCAN_INTERVAL_MINUTES && !sinceScan.isNegative()) {
        return new Decision.Closed(
            "sessions were counted "
                + sinceScan.toMinutes()
                + " min ago; they are counted at most every "
                + SCAN_INTERVAL_MINUTES
                + " min");
      }
    }
    store.save(store.load().withScan(now));
    List<String> sessions = sessionsTouchedSince(projectDirectories, last, currentSession);
    if (!force && sessions.size() < MIN_SESSIONS) {
      return new Decision.Closed(
          sessions.size()
              + " other sessions since the last consolidation; "
              + MIN_SESSIONS
              + " are needed");
    }
    return new Decision.Open(last, sessions);
  }

  /**
   * A session transcript's name is its session id, a UUID; other {@code .jsonl} files beside them
   * (a sub-agent's {@code agent-1234.jsonl}, an export) are not sessions, and the reference does
   * not count them either.
   */
  private static final Pattern SESSION_ID =
      Pattern.compile(
          "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", Pattern.CASE_INSENSITIVE);

  /** Session ids of transcripts ({@code <uuid>.jsonl}) modified after {@code since}. */
  static List<String> sessionsTouchedSince(
      List<Path> projectDirectories, Instant since, Optional<String> currentSession)
      throws IOException {
    Set<String> sessions = new LinkedHashSet<>();
    for (Path directory : new LinkedHashSet<>(projectDirectories)) {
      try (DirectoryStream<Path> transcripts = Files.newDirectoryStream(directory, "*.jsonl")) {
        for (Path transcript : transcripts) {
          String name = transcript.getFileName().toString();
          String session = name.substring(0, name.length() - ".jsonl".length());
          if (SESSION_ID.matcher(session).matches()
              && currentSession.filter(session::equals).isEmpty()
              && Files.isRegularFile(transcript)
              && Files.getLastModifiedTime(transcript).toInstant().isAfter(since)) {
            sessions.add(session);
          }
        }
      } catch (NoSuchFileException noSessions) {
        // A project the agent never ran in has no transcripts.
      }
    }
    return new ArrayList<>(sessions);
  }
}
