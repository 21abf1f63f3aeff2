package dev.teammemory.server.stores;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.protocol.ProtocolJson;
import dev.teammemory.protocol.Timestamps;
import dev.teammemory.server.limits.LimitsConfig;
import dev.teammemory.server.limits.ReadAdmission;
import dev.teammemory.server.memory.CallerViews;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * {@code GET /v1/memory_stores/{store}/memories/export}: Claude Code's bulk read of a store, as
 * NDJSON (MEMORY-STORES.md, "Claude Code's bulk export"). Everything that can refuse the request
 * (the store, the caller's access, the bound on exports at once) is decided before the first byte,
 * so a refusal is a normal JSON error. The memories then stream from one cursor of one read-only
 * transaction — one snapshot, and never the whole store in the heap — and the last line counts
 * them, which is how the client knows the export is whole. A client that takes nothing for {@link
 * ExportConfig#stallTimeout()} has its connection closed, freeing the database connection and the
 * slot.
 */
@Path("/v1/memory_stores/{store}/memories/export")
@Singleton
public class ExportResource {

  private static final Logger LOG = Logger.getLogger(ExportResource.class);
  private static final MediaType NDJSON = new MediaType("application", "x-ndjson");
  private static final byte[] NEWLINE = {'\n'};

  private static final String STORE = "SELECT id, slug FROM repository WHERE store_id = ?";
  private static final String VERSION = "SELECT version FROM repository WHERE id = ?";
  private static final String FULL =
      "SELECT memory_id, entry_key, content, checksum, updated_at, updated_by FROM memory_entry"
          + " WHERE repository_id = ? AND NOT deleted ORDER BY entry_key COLLATE \"C\"";
  private static final String BASIC =
      "SELECT memory_id, entry_key, checksum, size_bytes, updated_by FROM memory_entry"
          + " WHERE repository_id = ? AND NOT deleted ORDER BY entry_key COLLATE \"C\"";

  private final DataSource dataSource;
  private final StoreAccess access;
  private final CallerViews views;
  private final ExportConfig config;
  private final ReadAdmission admission;
  private final long entryBytes;
  private final ScheduledExecutorService watchdog;

  @Inject
  ExportResource(
      DataSource dataSource,
      StoreAccess access,
      CallerViews views,
      ExportConfig config,
      ReadAdmission admission,
      LimitsConfig limits) {
    this.dataSource = dataSource;
    this.access = access;
    this.views = views;
    this.config = config;
    this.admission = admission;
    this.entryBytes = limits.maxEntryBytes();
    this.watchdog =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "tmem-export-watchdog");
              thread.setDaemon(true);
              return thread;
            });
  }

  @PreDestroy
  void stop() {
    watchdog.shutdownNow();
  }

  @GET
  public Response export(
      @RestPath String store, @RestQuery String view, @Context HttpServerRequest request) {
    boolean basic = !StoreRequests.fullView(view, true);
    AuthorizedStore target = access.read(store);
    if (request.method() == HttpMethod.HEAD) {
      // A HEAD (routed here, as to every GET) never writes the body, so it must not take a slot.
      return Response.ok().type(NDJSON).build();
    }
    // A slot of its own caller's and of the server's, until the response ends; the cursor holds
    // a fetch of rows at a time (and their JSON).
    Runnable release =
        admission.admit(
            target.target().caller().id(),
            ReadAdmission.Kind.EXPORT,
            2L * config.fetchSize() * entryBytes);
    Store found =
        new Store(
            target.store().repositoryId(),
            target.target().slug().toString(),
            views.viewer(target.target()));
    StreamingOutput body =
        out -> {
          try {
            stream(found, basic, out, request);
          } finally {
            release.run();
          }
        };
    return Response.ok(body, NDJSON).build();
  }

  private void stream(Store store, boolean basic, OutputStream out, HttpServerRequest request)
      throws IOException {
    ObjectMapper json = ProtocolJson.mapper();
    // When the client stops reading, a write blocks; the watchdog closes the connection of one
    // blocked longer than the stall timeout, which makes the write fail and ends the export.
    AtomicLong blockedSince = new AtomicLong();
    long timeout = config.stallTimeout().toNanos();
    long tick = Math.max(TimeUnit.MILLISECONDS.toNanos(50), timeout / 4);
    ScheduledFuture<?> check =
        watchdog.scheduleAtFixedRate(
            () -> {
              long since = blockedSince.get();
              if (since != 0 && System.nanoTime() - since > timeout) {
                LOG.infof(
                    "Export of %s cut: the client took nothing for %s",
                    store.slug(), config.stallTimeout());
                // A reset closes an HTTP/1.1 connection at once; a graceful close would wait
                // for the very bytes the client does not take.
                request.response().reset();
              }
            },
            tick,
            tick,
            TimeUnit.NANOSECONDS);
    long count = 0;
    LOG.debugf("Export of %s started", store.slug());
    try (Connection connection = dataSource.getConnection()) {
      // One read-only transaction: the cursor (fetch size > 0 needs autocommit off) reads one
      // snapshot a few rows at a time.
      // Repeatable read makes the version and the memories one snapshot, so a daemon that starts
      // over from the export follows the change feed from exactly that version.
      connection.setAutoCommit(false);
      connection.setReadOnly(true);
      int isolation = connection.getTransactionIsolation();
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      String memories = basic ? BASIC : FULL;
      try (PreparedStatement statement =
          connection.prepareStatement(
              store.viewer().isEmpty() ? memories : CallerViews.over(memories))) {
        statement.setFetchSize(config.fetchSize());
        if (store.viewer().isPresent()) {
          statement.setString(1, store.viewer().get());
        }
        statement.setLong(store.viewer().isEmpty() ? 1 : 2, store.id());
        Line line = bytes -> write(out, bytes, blockedSince);
        Map<String, Object> first = new LinkedHashMap<>();
        first.put("type", "store");
        if (basic) {
          // Claude Code checks this line exactly; the version is for the daemon's full export.
          first.put("view", "basic");
        } else {
          first.put("version", version(connection, store.id()));
        }
        line.write(json.writeValueAsBytes(first));
        try (ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            line.write(json.writeValueAsBytes(basic ? basicLine(rows) : fullLine(rows)));
            count++;
          }
        }
        Map<String, Object> complete = new LinkedHashMap<>();
        complete.put("type", "complete");
        complete.put("memory_count", count);
        complete.put("error_count", 0);
        line.write(json.writeValueAsBytes(complete));
        out.flush();
      } finally {
        connection.rollback();
        connection.setReadOnly(false);
        connection.setAutoCommit(true);
        connection.setTransactionIsolation(isolation);
      }
    } catch (SQLException e) {
      // The status is sent: the client learns of the failure by the missing complete line, and
      // the reset keeps a proxy from taking the cut stream for a whole one.
      LOG.errorf(e, "Export of %s failed after %d memories", store.slug(), count);
      request.response().reset();
    } catch (IOException | UncheckedIOException e) {
      LOG.infof(
          "Export of %s ended early after %d memories: the client went away", store.slug(), count);
      throw e;
    } finally {
      check.cancel(false);
    }
  }

  /** The repository's version (an extension of the store line: the change feed's version). */
  private static long version(Connection connection, long repositoryId) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(VERSION)) {
      statement.setLong(1, repositoryId);
      try (ResultSet row = statement.executeQuery()) {
        return row.next() ? row.getLong(1) : 0;
      }
    }
  }

  private static void write(OutputStream out, byte[] bytes, AtomicLong blockedSince)
      throws IOException {
    blockedSince.set(System.nanoTime());
    try {
      out.write(bytes);
      out.write(NEWLINE);
    } finally {
      blockedSince.set(0);
    }
  }

  private static Map<String, Object> fullLine(ResultSet row) throws SQLException {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("type", "memory");
    line.put("id", row.getString("memory_id"));
    line.put("path", MemoryPaths.pathOf(row.getString("entry_key")));
    line.put("content", row.getString("content"));
    line.put("content_sha256", StoreBodies.hex(row.getString("checksum")));
    line.put(
        "updated_at",
        Timestamps.format(row.getObject("updated_at", OffsetDateTime.class).toInstant()));
    line.put("updated_by", actor(row.getString("updated_by")));
    return line;
  }

  private static Map<String, Object> basicLine(ResultSet row) throws SQLException {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("type", "memory");
    line.put("id", row.getString("memory_id"));
    line.put("path", MemoryPaths.pathOf(row.getString("entry_key")));
    line.put("content_sha256", StoreBodies.hex(row.getString("checksum")));
    line.put("content_size_bytes", row.getInt("size_bytes"));
    line.put("updated_by", actor(row.getString("updated_by")));
    return line;
  }

  /** Who wrote a memory's current version, in the shape of a version's {@code created_by}. */
  private static Map<String, String> actor(String user) {
    Map<String, String> actor = new LinkedHashMap<>();
    actor.put("type", "user_actor");
    actor.put("user_id", user);
    return actor;
  }

  /**
   * The store being exported: its repository row's id, slug (for logs), and the user whose view of
   * it the caller reads ({@link CallerViews}; empty: the newest).
   */
  private record Store(long id, String slug, Optional<String> viewer) {}

  @FunctionalInterface
  private interface Line {
    void write(byte[] bytes) throws IOException;
  }
}
