package dev.teammemory.daemon.api;

import dev.teammemory.daemon.files.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The local API's bearer token: 32 random bytes in {@code <state>/api-token}, readable only by the
 * user (0600 in a 0700 folder), made on first start and kept, so callers can read it once.
 */
final class ApiToken {

  static final String FILE_NAME = "api-token";

  private final byte[] token;

  private ApiToken(String token) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
  }

  static Path file(Path stateHome) {
    return stateHome.resolve(FILE_NAME);
  }

  static ApiToken loadOrCreate(Path stateHome) throws IOException {
    Path file = file(stateHome);
    if (!Files.exists(file)) {
      Files.createDirectories(stateHome);
      try {
        Files.setPosixFilePermissions(stateHome, PosixFilePermissions.fromString("rwx------"));
      } catch (UnsupportedOperationException notPosix) {
        // Windows keeps the user's profile private by default.
      }
      byte[] random = new byte[32];
      new SecureRandom().nextBytes(random);
      // Of two tmems starting at once, one creates it and the other uses theirs; nobody ever
      // reads a half-written token.
      AtomicFiles.create(
          file,
          (HexFormat.of().formatHex(random) + "\n").getBytes(StandardCharsets.UTF_8),
          PosixFilePermissions.fromString("rw-------"));
    }
    String token = Files.readString(file, StandardCharsets.UTF_8).strip();
    if (token.length() < 32) {
      throw new IOException(
          "the API token in " + file + " is too short; delete the file and start again");
    }
    return new ApiToken(token);
  }

  /** The token as curl's config file gives a header: only hex digits, so nothing to escape. */
  String curlConfig() {
    return "header = \"Authorization: Bearer " + new String(token, StandardCharsets.UTF_8) + "\"\n";
  }

  /** Whether an {@code Authorization} header carries this token, compared in constant time. */
  boolean authorizes(String authorization) {
    if (authorization == null || !authorization.startsWith("Bearer ")) {
      return false;
    }
    byte[] presented =
        authorization.substring("Bearer ".length()).strip().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(presented, token);
  }
}
