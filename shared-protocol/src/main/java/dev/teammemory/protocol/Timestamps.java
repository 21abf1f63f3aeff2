package dev.teammemory.protocol;

import java.time.Instant;

/** The protocol's timestamp format: ISO-8601 UTC with milliseconds. */
public final class Timestamps {

  /** What {@code lastModified} says of a repository that was never written (our choice). */
  public static final String NEVER = "1970-01-01T00:00:00.000Z";

  private Timestamps() {}

  public static String format(Instant instant) {
    return Wire.format(instant);
  }
}
