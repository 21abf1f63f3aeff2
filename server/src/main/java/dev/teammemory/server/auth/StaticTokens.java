package dev.teammemory.server.auth;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The static tokens file for demos and tests: one grant a line, {@code TOKEN USER REPOS ACCESS}
 * separated by white space, where REPOS is {@code owner/name}, {@code owner/*} or {@code *} and
 * ACCESS is {@code read}, {@code write}, {@code review} (write, and review teammates' changes) or
 * {@code admin} (review, and change the repository's settings). A line whose first field starts
 * with {@code #} is a comment, as is everything after the fourth field that starts with {@code #}.
 * A token may appear on several lines (for several repositories), always for the same user, and a
 * user has one token: the caller a token identifies is its user, so a second token could not grant
 * less than the first.
 *
 * <p>Tokens are kept only as SHA-256 digests, so that a heap dump or an error message cannot show
 * one, and errors name the file and line, never the token.
 */
final class StaticTokens {

  private final Map<String, Holder> holdersByDigest;
  private final Map<Caller, List<Grant>> grantsByCaller;

  private StaticTokens(Map<String, Holder> holdersByDigest) {
    this.holdersByDigest = Map.copyOf(holdersByDigest);
    Map<Caller, List<Grant>> grants = new HashMap<>();
    holdersByDigest.values().forEach(holder -> grants.put(holder.caller(), holder.grants()));
    this.grantsByCaller = Map.copyOf(grants);
  }

  /** Reads the file; a malformed line fails with the file name, line number and rule broken. */
  static StaticTokens load(Path file) {
    requireNonNull(file, "file is null");
    try {
      return parse(Files.readString(file, UTF_8), file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the static tokens file " + file + " (TMEM_AUTH_STATIC_TOKENS_FILE)", e);
    }
  }

  static StaticTokens parse(String text, String source) {
    Map<String, Holder> holders = new HashMap<>();
    Map<String, Integer> firstLines = new HashMap<>();
    Map<String, Integer> userLines = new HashMap<>();
    String[] lines = text.split("\r?\n", -1);
    for (int index = 0; index < lines.length; index++) {
      int lineNumber = index + 1;
      String[] fields = lines[index].strip().split("\\s+");
      if (fields[0].isEmpty() || fields[0].startsWith("#")) {
        continue;
      }
      if (fields.length < 4 || (fields.length > 4 && !fields[4].startsWith("#"))) {
        throw malformed(
            source,
            lineNumber,
            "expected 4 fields TOKEN USER REPOS ACCESS, found " + fields.length);
      }
      String digest = TokenDigest.of(fields[0]);
      String user = fields[1];
      Grant grant =
          new Grant(
              RepositoryPattern.parse(fields[2])
                  .orElseThrow(
                      () ->
                          malformed(
                              source,
                              lineNumber,
                              "REPOS must be owner/name, owner/* or *, not " + fields[2])),
              access(fields[3])
                  .orElseThrow(
                      () ->
                          malformed(
                              source,
                              lineNumber,
                              "ACCESS must be read, write, review or admin, not " + fields[3])));
      Holder holder = holders.get(digest);
      if (holder == null) {
        Integer userLine = userLines.putIfAbsent(user, lineNumber);
        if (userLine != null) {
          throw malformed(
              source,
              lineNumber,
              "user " + user + " already has another token on line " + userLine);
        }
        holders.put(
            digest, new Holder(Caller.ofStaticToken(user), new ArrayList<>(List.of(grant))));
        firstLines.put(digest, lineNumber);
      } else if (!holder.caller().user().equals(user)) {
        throw malformed(
            source,
            lineNumber,
            "this token was given to another user on line " + firstLines.get(digest));
      } else {
        holder.grants().add(grant);
      }
    }
    return new StaticTokens(holders);
  }

  /** The caller the token belongs to, with the grants of the file; empty for an unknown token. */
  Optional<Authenticated> authenticate(String bearerToken) {
    return identify(bearerToken)
        .map(
            caller ->
                new Authenticated(
                    caller,
                    new RepositoryAccess() {
                      @Override
                      public Permission permission(RepositorySlug repository) {
                        return StaticTokens.this.permission(caller, repository);
                      }

                      @Override
                      public Visibility visible() {
                        return StaticTokens.this.visible(caller);
                      }
                    }));
  }

  Optional<Caller> identify(String bearerToken) {
    Holder holder = holdersByDigest.get(TokenDigest.of(bearerToken));
    return holder == null ? Optional.empty() : Optional.of(holder.caller());
  }

  Permission permission(Caller caller, RepositorySlug repository) {
    Permission permission = Permission.NONE;
    for (Grant grant : grantsByCaller.getOrDefault(caller, List.of())) {
      if (grant.repositories().matches(repository)) {
        permission = permission.or(grant.permission());
      }
    }
    return permission;
  }

  /** What the caller's grants let it see (every grant allows reading). */
  Visibility visible(Caller caller) {
    Set<String> slugKeys = new HashSet<>();
    Set<String> ownerKeys = new HashSet<>();
    for (Grant grant : grantsByCaller.getOrDefault(caller, List.of())) {
      RepositoryPattern pattern = grant.repositories();
      if (pattern.slugKey().isPresent()) {
        slugKeys.add(pattern.slugKey().get());
      } else if (pattern.ownerKey().isPresent()) {
        ownerKeys.add(pattern.ownerKey().get());
      } else {
        return new Visibility.Everything();
      }
    }
    return new Visibility.Some(slugKeys, ownerKeys);
  }

  /** How many distinct tokens the file holds. */
  int tokenCount() {
    return holdersByDigest.size();
  }

  private static Optional<Permission> access(String field) {
    return switch (field.toLowerCase(Locale.ROOT)) {
      case "read" -> Optional.of(Permission.READ);
      case "write" -> Optional.of(Permission.WRITE);
      case "review" -> Optional.of(Permission.REVIEW);
      case "admin" -> Optional.of(Permission.ADMIN);
      default -> Optional.empty();
    };
  }

  private static IllegalArgumentException malformed(String source, int line, String reason) {
    return new IllegalArgumentException(
        "static tokens file " + source + ", line " + line + ": " + reason);
  }

  private record Holder(Caller caller, List<Grant> grants) {}

  private record Grant(RepositoryPattern repositories, Permission permission) {}

  /** {@code *}, {@code owner/*} or one {@code owner/name}, matched case-insensitively. */
  record RepositoryPattern(Optional<String> ownerKey, Optional<String> slugKey) {

    static Optional<RepositoryPattern> parse(String field) {
      if (field.equals("*")) {
        return Optional.of(new RepositoryPattern(Optional.empty(), Optional.empty()));
      }
      if (field.endsWith("/*")) {
        String owner = field.substring(0, field.length() - 2);
        return RepositorySlug.isOwner(owner)
            ? Optional.of(
                new RepositoryPattern(
                    Optional.of(owner.toLowerCase(Locale.ROOT)), Optional.empty()))
            : Optional.empty();
      }
      return RepositorySlug.parse(field)
          .map(slug -> new RepositoryPattern(Optional.empty(), Optional.of(slug.key())));
    }

    boolean matches(RepositorySlug repository) {
      if (slugKey.isPresent()) {
        return slugKey.get().equals(repository.key());
      }
      return ownerKey
          .map(owner -> owner.equals(repository.owner().toLowerCase(Locale.ROOT)))
          .orElse(true);
    }
  }
}
