package dev.teammemory.daemon.dailylog;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The append-only daily log: {@code <memory>/logs/YYYY/MM/YYYY-MM-DD.md}, one timestamped bullet
 * per thing worth remembering, in the user's local time. Nothing is ever rewritten; appends from
 * several processes are serialised by a file lock so bullets never interleave.
 */
public final class DailyLog {

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm");
  private static final ConcurrentHashMap<Path, Object> MONITORS = new ConcurrentHashMap<>();

  private final Path memoryDirectory;
  private final Clock clock;

  public DailyLog(Path memoryDirectory, Clock clock) {
    this.memoryDirectory = requireNonNull(memoryDirectory, "memoryDirectory is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** The log file of a day. */
  public static Path file(Path memoryDirectory, LocalDate date) {
    return memoryDirectory
        .resolve("logs")
        .resolve(String.format("%04d", date.getYear()))
        .resolve(String.format("%02d", date.getMonthValue()))
        .resolve(date + ".md");
  }

  public Path today() {
    return file(memoryDirectory, LocalDate.now(clock));
  }

  /**
   * Appends one bullet per entry, each stamped with the time now; a new day's file starts with its
   * date as a heading.
   *
   * @return the file written
   */
  public Path append(List<String> entries) throws IOException {
    Path file = today();
    if (entries.isEmpty()) {
      return file;
    }
    String time = TIME.format(ZonedDateTime.now(clock));
    StringBuilder text = new StringBuilder();
    for (String entry : entries) {
      text.append("- ")
          .append(time)
          .append(' ')
          .append(entry.strip().replace('\n', ' '))
          .append('\n');
    }
    Files.createDirectories(file.getParent());
    // The file lock serialises processes; threads of this process, which the JVM does not let
    // hold two locks on one file, take turns on the monitor first.
    synchronized (
        MONITORS.computeIfAbsent(file.toAbsolutePath().normalize(), key -> new Object())) {
      appendLocked(file, text.toString());
    }
    return file;
  }

  private void appendLocked(Path file, String text) throws IOException {
    try (FileChannel channel =
            FileChannel.open(
                file,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        FileLock lock = channel.lock()) {
      String prefix = channel.size() == 0 ? "# " + LocalDate.now(clock) + "\n\n" : "";
      ByteBuffer bytes = ByteBuffer.wrap((prefix + text).getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
    }
  }
}
