package dev.teammemory.server.console;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;

/**
 * The embedded demo's console key: kept in its data folder ({@code console.key}, readable by its
 * owner only), made on first start, so that sessions survive a restart of {@code ./tmem server}
 * without anyone configuring {@code TMEM_CONSOLE_KEY}. A deployment with its own database sets the
 * key itself; nothing here runs for it.
 */
public final class ConsoleKeyFile {

  static final String PROPERTY = "tmem.console.key";

  private ConsoleKeyFile() {}

  /** Sets {@code tmem.console.key} from {@code dataDirectory/console.key} unless one is set. */
  public static void useUnlessConfigured(
      Path dataDirectory, Map<String, String> environment, Properties system) {
    if (environment.containsKey("TMEM_CONSOLE_KEY") || system.containsKey(PROPERTY)) {
      return;
    }
    Path file = dataDirectory.resolve("console.key");
    try {
      if (!Files.exists(file)) {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Files.createDirectories(dataDirectory);
        Path written = Files.createTempFile(dataDirectory, "console.key", ".new");
        try {
          Files.setPosixFilePermissions(written, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException notPosix) {
          // Windows: the data folder's own permissions apply
        }
        Files.writeString(written, Base64.getEncoder().encodeToString(key));
        Files.move(written, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      }
      system.setProperty(PROPERTY, Files.readString(file).strip());
    } catch (IOException e) {
      // Without the file the server makes a key up at boot and says so; sessions then end with it.
      System.err.println("WARN: could not keep the console key in " + file + ": " + e.getMessage());
    }
  }
}
