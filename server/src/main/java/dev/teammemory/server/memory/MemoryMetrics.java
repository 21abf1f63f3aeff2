package dev.teammemory.server.memory;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The team-memory figures on {@code /q/metrics}, beside Quarkus's own HTTP timings: requests by
 * operation, conflicts ({@code 412}), and the bytes that PUT bodies bring and GETs send. Refusals
 * by {@code error_code} are counted where they are mapped, in {@code ErrorResponses}.
 */
@ApplicationScoped
class MemoryMetrics {

  private final MeterRegistry registry;
  private final Counter conflicts;
  private final DistributionSummary receivedBytes;
  private final DistributionSummary sentBytes;

  @Inject
  MemoryMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.conflicts =
        Counter.builder("tmem.conflicts")
            .description("Writes refused because If-Match named an outdated checksum")
            .register(registry);
    this.receivedBytes =
        DistributionSummary.builder("tmem.put.body")
            .baseUnit("bytes")
            .description("Sizes of PUT bodies")
            .register(registry);
    this.sentBytes =
        DistributionSummary.builder("tmem.get.content")
            .baseUnit("bytes")
            .description("Content bytes sent by full GETs")
            .register(registry);
  }

  void request(String operation) {
    registry.counter("tmem.requests", "operation", operation).increment();
  }

  void conflict() {
    conflicts.increment();
  }

  void received(long bytes) {
    receivedBytes.record(bytes);
  }

  void sent(long bytes) {
    sentBytes.record(bytes);
  }
}
