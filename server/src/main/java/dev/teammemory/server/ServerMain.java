package dev.teammemory.server;

import dev.teammemory.server.database.EmbeddedDatabase;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Starts the server. When no datasource URL is configured it first starts a real PostgreSQL,
 * embedded, with its data under {@code TMEM_DATA_DIR}, so a newcomer needs nothing but a JDK.
 */
@QuarkusMain
public final class ServerMain {

  ServerMain() {}

  public static void main(String... args) {
    EmbeddedDatabase.startUnlessConfigured(System.getenv(), System.getProperties());
    Quarkus.run(args);
  }
}
