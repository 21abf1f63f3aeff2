package dev.teammemory.daemon.sync;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.Keys;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;

/**
 * The local {@code team/} folder: scans it into keys and checksums, and writes or deletes what the
 * server sent only after the key passed the protocol's key rules and a containment check on the
 * real filesystem path (symbolic links resolved; dangling links and loops refused; never writing
 * through a link).
 */
public final class TeamFolder {

  /** Files larger than this are skipped in both directions (the protocol's per-entry limit). */
  static final long MAX_FILE_BYTES = 250_000;

  /**
   * A file's checksum is reused while its size, modification time and file key are unchanged, but
   * only when the modification time was at least this much older than the read that produced the
   * checksum: a write in the same clock tick as a read could otherwise keep the same time ("racy
   * git").
   */
  private static final long RACY_MILLIS = 2_000;

  private final Path root;
  private final Map<String, Stamp> stamps = new ConcurrentHashMap<>();

  private record Stamp(long size, FileTime modified, Object fileKey, String checksum, long readAt) {
    boolean matches(BasicFileAttributes attributes) {
      return size == attributes.size()
          && modified.equals(attributes.lastModifiedTime())
          && Objects.equals(fileKey, attributes.fileKey())
          && modified.toMillis() < readAt - RACY_MILLIS;
    }
  }

  public TeamFolder(Path root) throws IOException {
    Files.createDirectories(root);
    this.root = root.toRealPath();
  }

  public Path root() {
    return root;
  }

  /** Every file under the folder; symbolic links are reported, never followed. */
  LocalSnapshot scan() throws IOException {
    return scan((key, checksum) -> false);
  }

  /**
   * Every file under the folder; symbolic links are reported, never followed. The content of a file
   * this scan read and hashed is kept when {@code keep} wants it (a changed file the push sends),
   * so that it is read and hashed once.
   */
  LocalSnapshot scan(BiPredicate<String, String> keep) throws IOException {
    Seen seen = new Seen(keep);
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            if (!AtomicFiles.isTemporary(file)) {
              look(keyOf(file), file, attributes, seen);
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException failure) {
            if (!file.equals(root) && !(failure instanceof NoSuchFileException)) {
              // Shown in `tmem status`: a file that cannot be read must not look synced.
              seen.skipped.put(keyOf(file), unreadable(failure));
            }
            return FileVisitResult.CONTINUE;
          }
        });
    return seen.snapshot();
  }

  /**
   * The files of these keys alone, as a scan would see them (a key whose file is gone is left out),
   * keeping the content of each that {@code keep} wants: the push of what the watcher named.
   */
  LocalSnapshot look(Set<String> keys, BiPredicate<String, String> keep) {
    Seen seen = new Seen(keep);
    for (String key : keys) {
      Path file = root.resolve(key);
      try {
        look(
            key, file, Files.readAttributes(file, BasicFileAttributes.class, NOFOLLOW_LINKS), seen);
      } catch (NoSuchFileException vanished) {
        // Deleted since the watcher saw it: only a full scan counts a file missing.
      } catch (IOException failure) {
        seen.skipped.put(key, unreadable(failure));
      }
    }
    return seen.snapshot();
  }

  /**
   * The watcher's paths as keys, or empty when only a full scan can tell what they mean: a path
   * that is gone (a delete, or a rename's old name), a folder (moved in, or the whole tree after
   * lost events), or one outside the folder.
   */
  Optional<Set<String>> keysOf(Set<Path> paths) {
    Set<String> keys = new TreeSet<>();
    for (Path path : paths) {
      if (AtomicFiles.isTemporary(path)) {
        continue;
      }
      if (!path.startsWith(root)
          || path.equals(root)
          || !Files.exists(path, NOFOLLOW_LINKS)
          || Files.isDirectory(path, NOFOLLOW_LINKS)) {
        return Optional.empty();
      }
      keys.add(keyOf(path));
    }
    return Optional.of(keys);
  }

  /** What a scan or a look has seen so far. */
  private static final class Seen {
    final Map<String, LocalFile> files = new HashMap<>();
    final Map<String, SyncState.Skip> skipped = new HashMap<>();
    final Map<String, String> contents = new HashMap<>();
    final BiPredicate<String, String> keep;

    Seen(BiPredicate<String, String> keep) {
      this.keep = keep;
    }

    LocalSnapshot snapshot() {
      return new LocalSnapshot(files, skipped, contents);
    }
  }

  /**
   * One file: skipped with the reason, or its checksum (reused while its stamp holds, else read).
   */
  private void look(String key, Path file, BasicFileAttributes attributes, Seen seen) {
    if (attributes.isSymbolicLink()) {
      seen.skipped.put(key, new SyncState.Skip(SkipReason.SYMLINK, "", null));
    } else if (!attributes.isRegularFile()) {
      seen.skipped.put(key, new SyncState.Skip(SkipReason.NOT_A_FILE, "", null));
    } else if (Keys.violation(key).isPresent()) {
      seen.skipped.put(
          key,
          new SyncState.Skip(SkipReason.INVALID_NAME, Keys.violation(key).orElseThrow(), null));
    } else if (attributes.size() > MAX_FILE_BYTES) {
      seen.skipped.put(key, tooLarge(attributes.size()));
    } else {
      Stamp stamp = stamps.get(key);
      if (stamp != null && stamp.matches(attributes)) {
        seen.files.put(key, new LocalFile(key, file, stamp.checksum(), stamp.size()));
        return;
      }
      long readAt = System.currentTimeMillis();
      try {
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length > MAX_FILE_BYTES) {
          seen.skipped.put(key, tooLarge(bytes.length));
        } else if (!Checksums.isValidUtf8(bytes)) {
          // Sent as text it would arrive altered (U+FFFD where the bytes were) on the server and
          // every teammate's disk: refused, and named until it is fixed.
          seen.skipped.put(key, notUtf8(bytes));
        } else {
          String content = Checksums.decodeLeniently(bytes);
          String checksum = Checksums.ofContent(content);
          seen.files.put(key, new LocalFile(key, file, checksum, bytes.length));
          if (seen.keep.test(key, checksum)) {
            seen.contents.put(key, content);
          }
          if (bytes.length == attributes.size()) {
            stamps.put(
                key,
                new Stamp(
                    bytes.length,
                    attributes.lastModifiedTime(),
                    attributes.fileKey(),
                    checksum,
                    readAt));
          }
        }
      } catch (NoSuchFileException vanished) {
        // Deleted while we looked: not there.
      } catch (IOException unreadable) {
        seen.skipped.put(key, unreadable(unreadable));
      }
    }
  }

  private static SyncState.Skip unreadable(IOException failure) {
    return new SyncState.Skip(SkipReason.UNREADABLE, FailureWords.describe(failure), null);
  }

  static SyncState.Skip notUtf8(byte[] bytes) {
    return new SyncState.Skip(
        SkipReason.NOT_UTF8,
        "the first byte that is not is at offset " + firstBadByte(bytes),
        null);
  }

  /** Where the first byte that is not UTF-8 is. */
  static int firstBadByte(byte[] bytes) {
    java.nio.ByteBuffer input = java.nio.ByteBuffer.wrap(bytes);
    java.nio.CharBuffer output = java.nio.CharBuffer.allocate(bytes.length + 1);
    java.nio.charset.CoderResult result =
        UTF_8
            .newDecoder()
            .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
            .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
            .decode(input, output, true);
    return result.isError() ? input.position() : bytes.length;
  }

  static SyncState.Skip tooLarge(long bytes) {
    return new SyncState.Skip(
        SkipReason.TOO_LARGE, "%,d bytes; the limit is %,d".formatted(bytes, MAX_FILE_BYTES), null);
  }

  /** The key of a path under the folder: its relative path with {@code /} separators. */
  String keyOf(Path file) {
    return keyOf(root, file);
  }

  /** The key of {@code file} in the team folder {@code root}. */
  static String keyOf(Path root, Path file) {
    Path relative = root.relativize(file);
    StringBuilder key = new StringBuilder();
    for (Path part : relative) {
      if (!key.isEmpty()) {
        key.append('/');
      }
      key.append(part);
    }
    return key.toString();
  }

  /**
   * The content of a local file, or empty when it is gone, a link, too large or not UTF-8 (text is
   * carried exactly or not at all: the scan names such a file as skipped).
   */
  Optional<String> read(String key) throws IOException {
    return bytes(key)
        .filter(bytes -> bytes.length <= MAX_FILE_BYTES && Checksums.isValidUtf8(bytes))
        .map(bytes -> new String(bytes, UTF_8));
  }

  /**
   * The exact bytes of the local file of a valid key, or empty when it is gone or not a regular
   * file (for a copy kept before something replaces it).
   */
  public Optional<byte[]> localBytes(String key) throws IOException {
    return Keys.violation(key).isPresent() ? Optional.empty() : bytes(key);
  }

  /** The exact bytes of a local file, or empty when it is gone or not a regular file. */
  Optional<byte[]> bytes(String key) throws IOException {
    Path file = root.resolve(key);
    if (!Files.isRegularFile(file, NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    try {
      return Optional.of(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** When the local file was last written (by an edit or a pull), or empty when it is gone. */
  Optional<Instant> modifiedAt(String key) throws IOException {
    Path file = root.resolve(key);
    try {
      return Optional.of(
          Files.readAttributes(file, BasicFileAttributes.class, NOFOLLOW_LINKS)
              .lastModifiedTime()
              .toInstant());
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** The checksum of the local file now, or null when there is none. */
  public String checksumNow(String key) throws IOException {
    return read(key).map(Checksums::ofContent).orElse(null);
  }

  /**
   * Why a key from the server must not be written, or empty when it may: the key rules first, then
   * where it really lands on this filesystem.
   */
  public Optional<String> refusal(String key) {
    Optional<String> violation = Keys.violation(key);
    if (violation.isPresent()) {
      return violation;
    }
    try {
      return containment(key).refusal();
    } catch (IOException e) {
      return Optional.of("its path cannot be checked: " + FailureWords.describe(e));
    }
  }

  private record Placement(Path parent, Path target, Optional<String> refusal) {
    static Placement refused(String reason) {
      return new Placement(null, null, Optional.of(reason));
    }
  }

  /**
   * Resolves where the key lands: every existing ancestor is resolved to its real path (a link
   * among them is followed once, and must stay inside the folder); the file itself must not be a
   * link or a folder.
   */
  private Placement containment(String key) throws IOException {
    Path candidate = root.resolve(key).normalize();
    if (!candidate.startsWith(root) || candidate.equals(root)) {
      return Placement.refused("it points outside the team folder");
    }
    Path parent = root;
    String[] segments = key.split("/");
    for (int i = 0; i < segments.length - 1; i++) {
      Path next = parent.resolve(segments[i]);
      if (Files.isSymbolicLink(next)) {
        Path real;
        try {
          real = next.toRealPath();
        } catch (NoSuchFileException e) {
          return Placement.refused("a folder on its path is a dangling symbolic link");
        } catch (FileSystemException e) {
          return Placement.refused("a folder on its path is a symbolic link loop");
        }
        if (!real.startsWith(root)) {
          return Placement.refused(
              "a folder on its path is a symbolic link out of the team folder");
        }
        if (!Files.isDirectory(real)) {
          return Placement.refused("a file is in the way of its folder");
        }
        next = real;
      } else if (Files.exists(next, NOFOLLOW_LINKS) && !Files.isDirectory(next, NOFOLLOW_LINKS)) {
        return Placement.refused("a file is in the way of its folder");
      }
      parent = next;
    }
    Path target = parent.resolve(segments[segments.length - 1]);
    if (Files.isSymbolicLink(target)) {
      return Placement.refused("the local file is a symbolic link");
    }
    if (Files.isDirectory(target, NOFOLLOW_LINKS)) {
      return Placement.refused("a local folder has that name");
    }
    if (!target.normalize().startsWith(root)) {
      return Placement.refused("it points outside the team folder");
    }
    return new Placement(parent, target, Optional.empty());
  }

  /**
   * Writes the content for the key atomically, creating folders as needed. Returns the refusal when
   * the key must not be written (nothing is written then).
   */
  public Optional<String> write(String key, String content) throws IOException {
    Optional<String> violation = Keys.violation(key);
    if (violation.isPresent()) {
      return violation;
    }
    Placement placement = containment(key);
    if (placement.refusal().isPresent()) {
      return placement.refusal();
    }
    Files.createDirectories(placement.parent());
    // Folders created just now: check again that nothing swapped a link in meanwhile.
    if (!placement.parent().toRealPath().startsWith(root)) {
      return Optional.of("a folder on its path is a symbolic link out of the team folder");
    }
    AtomicFiles.write(placement.target(), content.getBytes(UTF_8));
    return Optional.empty();
  }

  /** Deletes the local file of the key when it still has {@code checksum}; true when deleted. */
  public boolean deleteIfUnchanged(String key, String checksum) throws IOException {
    if (refusal(key).isPresent()) {
      return false;
    }
    Path target = containment(key).target();
    if (target == null || !checksum.equals(checksumNow(key))) {
      return false;
    }
    return Files.deleteIfExists(target);
  }
}
