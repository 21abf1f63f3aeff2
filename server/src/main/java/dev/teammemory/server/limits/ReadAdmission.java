package dev.teammemory.server.limits;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.server.errors.ApiException;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Admits the expensive reads (full GET, history, listings, export) so that no caller takes what
 * others need: a caller has at most {@code maxConcurrentPerCaller} of them at once (exports: {@code
 * maxExportsPerCaller}), the replica at most {@code maxConcurrent} (exports: {@code
 * TMEM_EXPORT_MAX_CONCURRENT}), and together they may hold at most {@code maxBufferedBytes} of
 * heap, as estimated before each starts. A read that does not fit is refused at once with {@code
 * 429} and {@code retry-after} in its API's envelope, never queued: a queue would hold the
 * request's memory and connection while it waits. An admitted read holds its place until its
 * response has ended (written, failed, or its connection gone), whatever the resource did after.
 */
@ApplicationScoped
public class ReadAdmission {

  /** Which bound a read counts against. */
  public enum Kind {
    /** Full GET, history, listings. */
    READ,
    /** The store API's NDJSON export, which also holds a database connection while it streams. */
    EXPORT
  }

  /**
   * The heap a read holds per content byte it answers with: the contents as strings, as JSON bytes
   * and as the buffer sent (docs/admin.md, "Limits").
   */
  public static final long HELD_PER_CONTENT_BYTE = 4;

  /** What a page without contents is taken to hold: 100 items of metadata, generously. */
  public static final long METADATA_PAGE_BYTES = 256 * 1024;

  private final LimitsConfig.Reads limits;
  private final int maxExports;
  private final CurrentVertxRequest current;
  private final Map<String, Integer> readsByCaller = new HashMap<>();
  private final Map<String, Integer> exportsByCaller = new HashMap<>();
  private int reads;
  private int exports;
  private long bufferedBytes;

  @Inject
  ReadAdmission(
      LimitsConfig config,
      @ConfigProperty(name = "tmem.export.max-concurrent", defaultValue = "4") int maxExports,
      CurrentVertxRequest current,
      MeterRegistry registry) {
    this.limits = config.reads();
    this.maxExports = maxExports;
    this.current = current;
    Gauge.builder("tmem.exports.active", this, admission -> admission.active(Kind.EXPORT))
        .description("Memory store exports being streamed")
        .register(registry);
    Gauge.builder("tmem.reads.active", this, admission -> admission.active(Kind.READ))
        .description("Expensive reads being answered (full GET, history, listings)")
        .register(registry);
  }

  /**
   * Admits a read of {@code kind} by the caller {@code callerId} (one user or token) that will hold
   * about {@code estimatedBytes} until its response ends, or throws the {@code 429} that refuses
   * it. The answer releases the place earlier, once (a streamed body that has ended before its
   * response has).
   */
  public Runnable admit(String callerId, Kind kind, long estimatedBytes) {
    long bytes = Math.min(Math.max(estimatedBytes, 0), limits.maxBufferedBytes());
    String key = callerId;
    synchronized (this) {
      Map<String, Integer> byCaller = kind == Kind.EXPORT ? exportsByCaller : readsByCaller;
      int perCaller =
          kind == Kind.EXPORT ? limits.maxExportsPerCaller() : limits.maxConcurrentPerCaller();
      if (byCaller.getOrDefault(key, 0) >= perCaller) {
        throw busy(
            "you already have "
                + perCaller
                + (kind == Kind.EXPORT ? " exports" : " large reads")
                + " in progress on this server; retry when one has ended",
            1);
      }
      boolean full = kind == Kind.EXPORT ? exports >= maxExports : reads >= limits.maxConcurrent();
      if (full || bufferedBytes + bytes > limits.maxBufferedBytes()) {
        throw busy(
            "this server is answering as many large reads as it can at once; retry shortly", 1);
      }
      byCaller.merge(key, 1, Integer::sum);
      if (kind == Kind.EXPORT) {
        exports++;
      } else {
        reads++;
      }
      bufferedBytes += bytes;
    }
    AtomicBoolean released = new AtomicBoolean();
    Runnable release =
        () -> {
          if (released.compareAndSet(false, true)) {
            release(key, kind, bytes);
          }
        };
    current.getCurrent().addEndHandler(ended -> release.run());
    return release;
  }

  private synchronized void release(String key, Kind kind, long bytes) {
    Map<String, Integer> byCaller = kind == Kind.EXPORT ? exportsByCaller : readsByCaller;
    byCaller.computeIfPresent(key, (caller, count) -> count > 1 ? count - 1 : null);
    if (kind == Kind.EXPORT) {
      exports--;
    } else {
      reads--;
    }
    bufferedBytes -= bytes;
  }

  private synchronized int active(Kind kind) {
    return kind == Kind.EXPORT ? exports : reads;
  }

  private static ApiException busy(String message, int retryAfterSeconds) {
    return new ApiException(
        429,
        ErrorEnvelope.of(
            ErrorCodes.RATE_LIMITED, message, Map.of("retry_after", retryAfterSeconds)),
        Map.of("retry-after", Integer.toString(retryAfterSeconds)));
  }
}
