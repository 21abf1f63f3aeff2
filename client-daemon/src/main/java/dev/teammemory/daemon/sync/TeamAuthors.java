package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.protocol.Checksums;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Who wrote the current version of each file of a team folder, as the server said when this daemon
 * pulled it: kept in the project's state ({@code <state home>/projects/<project>/authors.json}) so
 * that the hooks and MCP can say whose notes a teammate's memory is. An author holds only for the
 * content it was learned with (its checksum is kept beside it): a file edited here since, or one
 * never pulled, has no author.
 *
 * @param teamDir the team folder the keys are relative to
 * @param byKey what the server said of each key
 */
public record TeamAuthors(Path teamDir, Map<String, Learned> byKey) {

  static final String FILE_NAME = "authors.json";

  /** A state file larger than this is not read: a few thousand keys take a few hundred KB. */
  private static final long MAX_FILE_BYTES = 4L * 1024 * 1024;

  /**
   * What may reach an agent as an author: a GitHub login or a static token's caller name. Anything
   * else the server sends (a line break, a fence, a paragraph) is not an author.
   */
  private static final Pattern AUTHOR = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}");

  private static final ObjectMapper JSON =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  public TeamAuthors {
    teamDir = requireNonNull(teamDir, "teamDir is null").toAbsolutePath().normalize();
    byKey = byKey == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(byKey));
  }

  /** The author of one version of a key. */
  public record Author(String login, Optional<Instant> at) {
    public Author {
      requireNonNull(login, "login is null");
      requireNonNull(at, "at is null");
    }
  }

  /**
   * What the server said of one key's version.
   *
   * @param author who wrote it (a login)
   * @param at when, ISO-8601, or null when the server did not say
   * @param checksum the version's {@code sha256:} checksum
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Learned(
      @JsonProperty("author") String author,
      @JsonProperty("at") String at,
      @JsonProperty("checksum") String checksum) {
    public Learned {
      requireNonNull(author, "author is null");
      requireNonNull(checksum, "checksum is null");
    }

    /** What the server said, when its author is one an agent may be shown. */
    static Optional<Learned> of(String author, Optional<String> at, String checksum) {
      if (author == null || !AUTHOR.matcher(author).matches()) {
        return Optional.empty();
      }
      return Optional.of(
          new Learned(author, at.filter(TeamAuthors::isInstant).orElse(null), checksum));
    }
  }

  /** Nobody's authors known for this folder. */
  public static TeamAuthors none(Path teamDir) {
    return new TeamAuthors(teamDir, Map.of());
  }

  /**
   * The authors the daemon keeps for {@code teamDir}, found among the projects' states under {@code
   * stateHome}; none when no daemon pulled it (or its file cannot be read: attribution is missing,
   * never wrong).
   */
  public static TeamAuthors read(Path stateHome, Path teamDir) {
    Path wanted = real(teamDir);
    Path projects = stateHome.resolve("projects");
    TeamAuthors newest = none(wanted);
    FileTime newestTime = FileTime.fromMillis(Long.MIN_VALUE);
    if (!Files.isDirectory(projects)) {
      return newest;
    }
    try (DirectoryStream<Path> folders = Files.newDirectoryStream(projects)) {
      for (Path folder : folders) {
        Path file = folder.resolve(FILE_NAME);
        Optional<TeamAuthors> saved = load(file);
        if (saved.isPresent() && saved.get().teamDir().equals(wanted)) {
          // One folder synced with two servers: the newer pull speaks.
          FileTime modified = Files.getLastModifiedTime(file);
          if (modified.compareTo(newestTime) > 0) {
            newest = saved.get();
            newestTime = modified;
          }
        }
      }
    } catch (IOException unreadable) {
      return newest;
    }
    return newest;
  }

  /**
   * The author of a file of the team folder as it is now: empty when the server never named one, or
   * when the file is not the version the author wrote.
   */
  public Optional<Author> authorOf(Path file) {
    Path absolute = real(file);
    if (!absolute.startsWith(teamDir) || absolute.equals(teamDir)) {
      return Optional.empty();
    }
    Learned learned = byKey.get(TeamFolder.keyOf(teamDir, absolute));
    if (learned == null) {
      return Optional.empty();
    }
    try {
      if (!Files.isRegularFile(absolute, LinkOption.NOFOLLOW_LINKS)
          || Files.size(absolute) > TeamFolder.MAX_FILE_BYTES) {
        return Optional.empty();
      }
      String now = Checksums.ofContent(Checksums.decodeLeniently(Files.readAllBytes(absolute)));
      if (!now.equals(learned.checksum())) {
        return Optional.empty();
      }
    } catch (IOException unreadable) {
      return Optional.empty();
    }
    return Optional.of(
        new Author(learned.author(), Optional.ofNullable(learned.at()).map(Instant::parse)));
  }

  /** These authors with what a pull learned added (a key's newer version replaces its older). */
  TeamAuthors with(Map<String, Learned> learned) {
    if (learned.isEmpty()) {
      return this;
    }
    Map<String, Learned> merged = new HashMap<>(byKey);
    merged.putAll(learned);
    return new TeamAuthors(teamDir, merged);
  }

  /** These authors for the keys the server still holds. */
  TeamAuthors onlyFor(Set<String> keys) {
    Map<String, Learned> kept = new HashMap<>(byKey);
    kept.keySet().retainAll(keys);
    return kept.size() == byKey.size() ? this : new TeamAuthors(teamDir, kept);
  }

  /** The authors kept in a project's state folder, or none. */
  static TeamAuthors load(Path stateDir, Path teamDir) {
    return load(stateDir.resolve(FILE_NAME))
        .filter(saved -> saved.teamDir().equals(real(teamDir)))
        .orElse(none(teamDir));
  }

  /** Writes these authors into the project's state folder, atomically. */
  void save(Path stateDir) throws IOException {
    AtomicFiles.write(
        stateDir.resolve(FILE_NAME),
        JSON.writerWithDefaultPrettyPrinter()
            .writeValueAsBytes(new Saved(teamDir.toString(), byKey)));
  }

  private static Optional<TeamAuthors> load(Path file) {
    try {
      if (!Files.isRegularFile(file) || Files.size(file) > MAX_FILE_BYTES) {
        return Optional.empty();
      }
      Saved saved = JSON.readValue(file.toFile(), Saved.class);
      if (saved == null || saved.teamDir() == null) {
        return Optional.empty();
      }
      Map<String, Learned> valid = new HashMap<>();
      if (saved.authors() != null) {
        saved
            .authors()
            .forEach(
                (key, learned) -> {
                  if (learned != null
                      && AUTHOR.matcher(learned.author()).matches()
                      && (learned.at() == null || isInstant(learned.at()))) {
                    valid.put(key, learned);
                  }
                });
      }
      return Optional.of(new TeamAuthors(Path.of(saved.teamDir()), valid));
    } catch (IOException | RuntimeException unreadable) {
      // Written atomically by the daemon: unreadable means another tool wrote it; no attribution.
      return Optional.empty();
    }
  }

  /** The path with links resolved when it exists (the daemon keeps the folder's real path). */
  private static Path real(Path path) {
    try {
      return path.toRealPath();
    } catch (IOException | SecurityException absent) {
      return path.toAbsolutePath().normalize();
    }
  }

  private static boolean isInstant(String text) {
    try {
      Instant.parse(text);
      return true;
    } catch (DateTimeParseException notAnInstant) {
      return false;
    }
  }

  private record Saved(
      @JsonProperty("teamDir") String teamDir,
      @JsonProperty("authors") Map<String, Learned> authors) {}
}
