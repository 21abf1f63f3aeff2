package dev.teammemory.server.changes;

import dev.teammemory.server.memory.EntryStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * One dedicated PostgreSQL connection per server process that {@code LISTEN}s on {@link
 * EntryStore#CHANGES_CHANNEL}, so that a write on any replica wakes the change feeds waiting on
 * every replica. It runs on its own thread (a blocking read of the socket, never an event loop),
 * and reconnects with backoff when the database restarts; after a reconnect every waiter checks
 * again, since notifications sent meanwhile are lost.
 */
@ApplicationScoped
class PostgresChangeListener {

  /** The {@code application_name} of the connection, to find it in {@code pg_stat_activity}. */
  static final String APPLICATION_NAME = "tmem-change-listener";

  private static final Logger LOG = Logger.getLogger(PostgresChangeListener.class);
  private static final int POLL_MILLIS = 5_000;
  private static final Duration IDLE_CHECK = Duration.ofSeconds(30);
  private static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(15);

  private final ChangeNotifications notifications;
  private final String url;
  private final Optional<String> username;
  private final Optional<String> password;

  private volatile boolean running;
  private volatile boolean listening;
  private volatile Connection connection;
  private Thread thread;

  @Inject
  PostgresChangeListener(
      ChangeNotifications notifications,
      @ConfigProperty(name = "quarkus.datasource.jdbc.url") String url,
      @ConfigProperty(name = "quarkus.datasource.username") Optional<String> username,
      @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
    this.notifications = notifications;
    this.url = url;
    this.username = username;
    this.password = password;
  }

  void start(@Observes StartupEvent event) {
    running = true;
    thread = Thread.ofPlatform().name(APPLICATION_NAME).daemon().start(this::run);
  }

  void stop(@Observes ShutdownEvent event) throws InterruptedException {
    running = false;
    closeQuietly(connection);
    thread.interrupt();
    thread.join(TimeUnit.SECONDS.toMillis(5));
  }

  /** True while the connection is up and listening. */
  boolean listening() {
    return listening;
  }

  private void run() {
    Duration backoff = FIRST_BACKOFF;
    boolean everConnected = false;
    while (running) {
      try (Connection opened = DriverManager.getConnection(url, properties())) {
        connection = opened;
        try (Statement statement = opened.createStatement()) {
          statement.execute("LISTEN " + EntryStore.CHANGES_CHANNEL);
        }
        listening = true;
        if (everConnected) {
          LOG.info("Change listener reconnected; waking every waiting change feed to check");
          notifications.changedEverywhere();
        }
        everConnected = true;
        backoff = FIRST_BACKOFF;
        listen(opened);
      } catch (SQLException e) {
        listening = false;
        if (running) {
          LOG.warnf(
              "Change listener lost its database connection (%s); reconnecting in %d ms",
              e.getMessage(), backoff.toMillis());
          LockSupport.parkNanos(backoff.toNanos());
          backoff =
              backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0
                  ? MAX_BACKOFF
                  : backoff.multipliedBy(2);
        }
      } finally {
        listening = false;
        connection = null;
      }
    }
  }

  private void listen(Connection opened) throws SQLException {
    PGConnection postgres = opened.unwrap(PGConnection.class);
    long lastActivity = System.nanoTime();
    while (running) {
      PGNotification[] received = postgres.getNotifications(POLL_MILLIS);
      if (received != null && received.length > 0) {
        lastActivity = System.nanoTime();
        for (PGNotification notification : received) {
          notifications.changed(notification.getParameter());
        }
      } else if (System.nanoTime() - lastActivity > IDLE_CHECK.toNanos()) {
        // A connection that died without a FIN looks idle forever; a query finds out.
        try (Statement statement = opened.createStatement()) {
          statement.execute("SELECT 1");
        }
        lastActivity = System.nanoTime();
      }
    }
  }

  private Properties properties() {
    Properties properties = new Properties();
    username.ifPresent(user -> properties.setProperty("user", user));
    password.ifPresent(secret -> properties.setProperty("password", secret));
    properties.setProperty("ApplicationName", APPLICATION_NAME);
    return properties;
  }

  private static void closeQuietly(Connection connection) {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        // closing on shutdown: nothing left to do with it
      }
    }
  }
}
