package dev.teammemory.server.stores;

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
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * {@code GET /v1/memory_stores/{store}/memories/export}: Claude Code's bulk read of a store, as
 * NDJSON (MEMORY-STORES.md, "Claude Code's bulk export"). Everything that can refuse the request
 * (the store, the caller's access, the bound on exports at once) is decided before the first byte,
 * so a refusal is a normal JSON error. The memories then stream as {@link StoreExport} reads them,
 * from one snapshot, and the last line counts them, which is how the client knows the export is
 * whole. A client that takes nothing for {@link ExportConfig#stallTimeout()} has its connection
 * closed, freeing the database connection and the slot.
 */
@Path("/v1/memory_stores/{store}/memories/export")
@Singleton
public class ExportResource {

  private static final Logger LOG = Logger.getLogger(ExportResource.class);
  private static final MediaType NDJSON = new MediaType("application", "x-ndjson");
  private static final byte[] NEWLINE = {'\n'};

  private final StoreExport export;
  private final StoreAccess access;
  private final CallerViews views;
  private final ExportConfig config;
  private final ReadAdmission admission;
  private final long entryBytes;
  private final ScheduledExecutorService watchdog;

  @Inject
  ExportResource(
      StoreExport export,
      StoreAccess access,
      CallerViews views,
      ExportConfig config,
      ReadAdmission admission,
      LimitsConfig limits) {
    this.export = export;
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
    AtomicLong lines = new AtomicLong();
    LOG.debugf("Export of %s started", store.slug());
    try {
      switch (export.write(
          store.id(),
          store.viewer(),
          basic,
          bytes -> {
            write(out, bytes, blockedSince);
            lines.incrementAndGet();
          })) {
        case StoreExport.Ending.Complete complete -> out.flush();
        case StoreExport.Ending.Failed failed -> {
          // The status is sent: the client learns of the failure by the missing complete line,
          // and the reset keeps a proxy from taking the cut stream for a whole one.
          LOG.errorf(
              failed.cause(),
              "Export of %s failed after %d memories",
              store.slug(),
              failed.count());
          request.response().reset();
        }
      }
    } catch (IOException | UncheckedIOException e) {
      LOG.infof(
          "Export of %s ended early after %d memories: the client went away",
          store.slug(), Math.max(0, lines.get() - 1)); // every line but the store line
      throw e;
    } finally {
      check.cancel(false);
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

  /**
   * The store being exported: its repository row's id, slug (for logs), and the user whose view of
   * it the caller reads ({@link CallerViews}; empty: the newest).
   */
  private record Store(long id, String slug, Optional<String> viewer) {}
}
