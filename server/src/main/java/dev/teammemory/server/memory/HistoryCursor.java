package dev.teammemory.server.memory;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where a page of a key's history starts: below {@code beforeVersion}. On the wire it is the opaque
 * {@code next_page} text {@code v<version>}; anything else a client sends as {@code page} is not a
 * cursor this server gave.
 */
record HistoryCursor(long beforeVersion) {

  private static final Pattern WIRE = Pattern.compile("v[1-9][0-9]{0,17}");

  HistoryCursor {
    if (beforeVersion < 1) {
      throw new IllegalArgumentException(
          "a page starts below a positive version: " + beforeVersion);
    }
  }

  /** The cursor {@code text} spells; empty when it is not one (forged, garbled, too long). */
  static Optional<HistoryCursor> parse(String text) {
    if (text == null || !WIRE.matcher(text).matches()) {
      return Optional.empty();
    }
    return Optional.of(new HistoryCursor(Long.parseLong(text.substring(1))));
  }

  /** The text a client sends back as {@code page}. */
  String wire() {
    return "v" + beforeVersion;
  }
}
