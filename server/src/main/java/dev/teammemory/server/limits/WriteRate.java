package dev.teammemory.server.limits;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.server.errors.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Each caller's write rate (docs/admin.md, "Limits"): every write of either API takes one token
 * from the caller's bucket of requests and its declared body length from its bucket of bytes (a
 * body without a declared length is charged at the body limit), after authentication (whose filter
 * asks here) and before anything is read. Over either bucket, the write is refused with {@code 429}
 * and a {@code retry-after} of the seconds until it would pass, in its API's envelope; other
 * callers are not affected. Per replica.
 */
@ApplicationScoped
public class WriteRate {

  private static final Set<String> WRITES = Set.of("PUT", "POST", "PATCH", "DELETE");

  /** Buckets untouched this long are full again and are forgotten, so the map stays small. */
  private static final long FORGET_AFTER_NANOS = 3_600_000_000_000L;

  private final LimitsConfig.Writes limits;
  private final long maxBodyBytes;
  private final LongSupplier clock;
  private final Map<String, Buckets> buckets = new ConcurrentHashMap<>();

  @Inject
  WriteRate(LimitsConfig config) {
    this(config.writes(), config.maxBodyBytes(), System::nanoTime);
  }

  WriteRate(LimitsConfig.Writes limits, long maxBodyBytes, LongSupplier clock) {
    if (limits.burst() < 1 || limits.perSecond() <= 0) {
      throw new IllegalArgumentException(
          "TMEM_LIMITS_WRITES_BURST and TMEM_LIMITS_WRITES_PER_SECOND must be positive");
    }
    if (limits.burstBytes() < maxBodyBytes || limits.bytesPerSecond() < 1) {
      throw new IllegalArgumentException(
          "TMEM_LIMITS_WRITES_BURST_BYTES must be at least the body limit ("
              + maxBodyBytes
              + ") and TMEM_LIMITS_WRITES_BYTES_PER_SECOND positive");
    }
    this.limits = limits;
    this.maxBodyBytes = maxBodyBytes;
    this.clock = clock;
  }

  /**
   * Takes one request of {@code method} with its {@code Content-Length} header (null when absent)
   * from the buckets of the caller {@code callerId}, or throws the 429; reads pass.
   */
  public void charge(String callerId, String method, String declaredLength) {
    if (WRITES.contains(method)) {
      charge(callerId, declaredLength(method, declaredLength));
    }
  }

  /** Takes one write of {@code bytes} from the caller's buckets, or throws the 429. */
  void charge(String callerId, long bytes) {
    long now = clock.getAsLong();
    if (buckets.size() > 10_000) {
      forgetIdle(now);
    }
    long waitSeconds =
        buckets
            .computeIfAbsent(callerId, id -> new Buckets(limits, now))
            .take(Math.min(bytes, maxBodyBytes), now);
    if (waitSeconds > 0) {
      throw new ApiException(
          429,
          ErrorEnvelope.of(
              ErrorCodes.RATE_LIMITED,
              "you are writing faster than this server allows each caller; retry in "
                  + waitSeconds
                  + " s",
              Map.of("retry_after", waitSeconds)),
          Map.of("retry-after", Long.toString(waitSeconds)));
    }
  }

  private long declaredLength(String method, String declared) {
    if (declared == null) {
      // DELETE has no body; any other write without a declared length may send up to the limit.
      return method.equals("DELETE") ? 0 : maxBodyBytes;
    }
    try {
      return Math.max(0, Long.parseLong(declared.strip()));
    } catch (NumberFormatException e) {
      return maxBodyBytes;
    }
  }

  private void forgetIdle(long now) {
    for (Iterator<Buckets> it = buckets.values().iterator(); it.hasNext(); ) {
      if (now - it.next().lastNanos() > FORGET_AFTER_NANOS) {
        it.remove();
      }
    }
  }

  /** One caller's two buckets, refilled lazily from the time of the last take. */
  private static final class Buckets {
    private final LimitsConfig.Writes limits;
    private double requests;
    private double bytes;
    private long lastNanos;

    Buckets(LimitsConfig.Writes limits, long now) {
      this.limits = limits;
      this.requests = limits.burst();
      this.bytes = limits.burstBytes();
      this.lastNanos = now;
    }

    /** Takes one request of {@code size} bytes; 0, or the whole seconds until it would pass. */
    synchronized long take(long size, long now) {
      double elapsed = Math.max(0, now - lastNanos) / 1e9;
      lastNanos = now;
      requests = Math.min(limits.burst(), requests + elapsed * limits.perSecond());
      bytes = Math.min(limits.burstBytes(), bytes + elapsed * limits.bytesPerSecond());
      if (requests >= 1 && bytes >= size) {
        requests -= 1;
        bytes -= size;
        return 0;
      }
      double waitRequests = requests >= 1 ? 0 : (1 - requests) / limits.perSecond();
      double waitBytes = bytes >= size ? 0 : (size - bytes) / limits.bytesPerSecond();
      return Math.max(1, (long) Math.ceil(Math.max(waitRequests, waitBytes)));
    }

    synchronized long lastNanos() {
      return lastNanos;
    }
  }
}
