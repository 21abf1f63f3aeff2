package dev.teammemory.daemon.dailylog;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryLocation;

/**
 * Whether memories go to an append-only daily log instead of topic files (the reference's KAIROS
 * mode for long-lived assistant sessions): {@code TMEM_DAILY_LOG} when set (truthy on, falsy off),
 * else the setting {@code dailyLogMode}. Like the reference, the mode excludes team memory
 * (appending to a personal log does not fit an index both sides write) and automatic consolidation
 * ({@code MEMORY.md} is read-only; only {@code tmem dream --now} distils the logs).
 *
 * @param source what switched it on or off, for status output
 */
public record DailyLogMode(boolean enabled, String source) {

  public static final String VARIABLE = "TMEM_DAILY_LOG";

  public DailyLogMode {
    requireNonNull(source, "source is null");
  }

  public static DailyLogMode of(Environment environment, MemoryLocation location) {
    if (environment.isTruthy(VARIABLE)) {
      return new DailyLogMode(true, VARIABLE + "=" + environment.get(VARIABLE).orElseThrow());
    }
    if (environment.isDefinedFalsy(VARIABLE)) {
      return new DailyLogMode(false, VARIABLE + "=" + environment.get(VARIABLE).orElseThrow());
    }
    return location
        .settings()
        .dailyLogMode()
        .map(
            setting ->
                new DailyLogMode(
                    setting.value(), "dailyLogMode: " + setting.value() + " in " + setting.file()))
        .orElse(new DailyLogMode(false, "default"));
  }
}
