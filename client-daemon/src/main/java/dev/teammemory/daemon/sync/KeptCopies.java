package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Copies of local files kept before the server made the daemon replace or delete them, as
 * Syncthing's versions folder: {@code <state>/replaced/<when>/<key>}, one folder per pull (a "sync"
 * that {@code tmem team restore --sync} brings back whole). The exact bytes are kept, a copy of a
 * key already kept with the same bytes is not kept twice, and the oldest go first once they are
 * older than the limit in days or exceed the limit in bytes.
 */
public final class KeptCopies {

  /**
   * How much is kept: copies younger than {@code age}, at most {@code bytes} in all (the newest
   * win). {@code TMEM_KEEP_DAYS} (30) and {@code TMEM_KEEP_MB} (100) set them.
   */
  public record Limits(Duration age, long bytes) {
    public Limits {
      requireNonNull(age, "age is null");
    }

    public static Limits defaults() {
      return new Limits(Duration.ofDays(30), 100L * 1024 * 1024);
    }

    /** The limits the environment sets; a value that is not a positive number keeps the default. */
    public static Limits fromEnvironment(Map<String, String> environment) {
      Limits defaults = defaults();
      long days = positive(environment.get("TMEM_KEEP_DAYS")).orElse(defaults.age().toDays());
      long megabytes =
          positive(environment.get("TMEM_KEEP_MB")).orElse(defaults.bytes() / (1024 * 1024));
      return new Limits(Duration.ofDays(days), megabytes * 1024 * 1024);
    }

    private static Optional<Long> positive(String value) {
      try {
        long parsed = Long.parseLong(value == null ? "" : value.strip());
        return parsed > 0 ? Optional.of(parsed) : Optional.empty();
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
  }

  /** One kept copy: the sync it was kept in ({@code when}), its key, size and file. */
  public record Kept(String when, String key, long bytes, Instant at, Path file) {}

  private final Path root;
  private final Limits limits;

  /** Key to the digests of its kept copies; read from the folder at the first copy. */
  private Map<String, Set<String>> digests;

  public KeptCopies(Path root, Limits limits) {
    this.root = root.toAbsolutePath().normalize();
    this.limits = requireNonNull(limits, "limits is null");
  }

  /** The kept copies of the project whose state folder is {@code stateDir}. */
  public static KeptCopies of(Path stateDir, Map<String, String> environment) {
    return new KeptCopies(stateDir.resolve("replaced"), Limits.fromEnvironment(environment));
  }

  public Path root() {
    return root;
  }

  /**
   * Keeps {@code bytes} as the copy of {@code key} in the sync {@code when} (a time, {@code :} made
   * {@code -}). Returns the copy, or the earlier copy of the same bytes.
   */
  public synchronized Path keep(String key, byte[] bytes, String when) throws IOException {
    Path copy = root.resolve(when.replace(':', '-')).resolve(key).normalize();
    if (!copy.startsWith(root) || copy.getParent().equals(root)) {
      throw new IOException("the key does not fit under " + root);
    }
    String digest = digest(bytes);
    if (digests == null) {
      digests = new HashMap<>();
      for (Kept kept : list()) {
        digests
            .computeIfAbsent(kept.key(), k -> new HashSet<>())
            .add(digest(Files.readAllBytes(kept.file())));
      }
    }
    if (digests.getOrDefault(key, Set.of()).contains(digest)) {
      Optional<Path> earlier =
          list().stream()
              .filter(kept -> kept.key().equals(key))
              .map(Kept::file)
              .filter(file -> sameBytes(file, bytes))
              .findFirst();
      if (earlier.isPresent()) {
        return earlier.get();
      }
    }
    AtomicFiles.write(copy, bytes);
    digests.computeIfAbsent(key, k -> new HashSet<>()).add(digest);
    prune(Instant.now());
    return copy;
  }

  /** Every kept copy, newest first. */
  public List<Kept> list() throws IOException {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    List<Kept> kept = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path relative = root.relativize(file);
        if (relative.getNameCount() < 2
            || !Files.isRegularFile(file)
            || AtomicFiles.isTemporary(file)) {
          continue;
        }
        try {
          kept.add(
              new Kept(
                  relative.getName(0).toString(),
                  relative.subpath(1, relative.getNameCount()).toString().replace('\\', '/'),
                  Files.size(file),
                  Files.getLastModifiedTime(file).toInstant(),
                  file));
        } catch (NoSuchFileException pruned) {
          // Gone meanwhile: not kept any more.
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    kept.sort(Comparator.comparing(Kept::at).reversed().thenComparing(Kept::key));
    return kept;
  }

  /** The copies kept since {@code since}. */
  public List<Kept> keptSince(Instant since) throws IOException {
    return list().stream().filter(kept -> !kept.at().isBefore(since)).toList();
  }

  /** Drops copies older than the age limit, then the oldest until the rest fit the byte limit. */
  public synchronized void prune(Instant now) throws IOException {
    long total = 0;
    Instant oldest = now.minus(limits.age());
    for (Kept kept : list()) {
      total += kept.bytes();
      if (kept.at().isBefore(oldest) || total > limits.bytes()) {
        Files.deleteIfExists(kept.file());
        digests = null;
        removeEmptyFolders(kept.file().getParent());
      }
    }
  }

  private void removeEmptyFolders(Path folder) throws IOException {
    while (folder != null && folder.startsWith(root) && !folder.equals(root)) {
      try (Stream<Path> entries = Files.list(folder)) {
        if (entries.findAny().isPresent()) {
          return;
        }
      }
      Files.deleteIfExists(folder);
      folder = folder.getParent();
    }
  }

  private static boolean sameBytes(Path file, byte[] bytes) {
    try {
      return java.util.Arrays.equals(Files.readAllBytes(file), bytes);
    } catch (IOException e) {
      return false;
    }
  }

  private static String digest(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
