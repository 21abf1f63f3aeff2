package dev.teammemory.server.http;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.smallrye.health.SmallRyeHealth;
import io.smallrye.health.SmallRyeHealthReporter;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

/**
 * Serves {@code /q/metrics} in Prometheus's text format. Quarkus's own Prometheus endpoint comes
 * with the quarkus-micrometer-registry-prometheus extension, which this build cannot fetch; the
 * plain Micrometer registry is on the classpath, so it is joined to Quarkus's composite registry
 * here (every meter, Quarkus's HTTP timings included, reaches it) and scraped on request.
 *
 * <p>Beside the meters: HTTP server timings as a histogram ({@code
 * http_server_requests_seconds_bucket}, for latency percentiles), and {@code tmem_ready} and {@code
 * tmem_database_up}, 1 or 0, which the readiness checks ({@code /q/health/ready}) decide at each
 * scrape, so that alert rules need nothing but this endpoint.
 */
@ApplicationScoped
class PrometheusEndpoint {

  static final String PATH = "/q/metrics";

  /** Quarkus's datasource readiness check. */
  private static final String DATABASE_CHECK = "Database connections health check";

  /** Bucket bounds, in milliseconds: the protocol's requests, then the change feed's long poll. */
  private static final long[] LATENCY_BUCKETS_MS = {
    5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 65_000
  };

  private final PrometheusMeterRegistry prometheus =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final SmallRyeHealthReporter health;
  private final AtomicInteger ready = new AtomicInteger();
  private final AtomicInteger databaseUp = new AtomicInteger();

  @Inject
  PrometheusEndpoint(MeterRegistry registry, SmallRyeHealthReporter health) {
    this.health = health;
    prometheus.config().meterFilter(latencyHistogram());
    if (registry instanceof CompositeMeterRegistry composite) {
      composite.add(prometheus);
    }
    Gauge.builder("tmem.ready", ready, AtomicInteger::get)
        .description("1 when this replica's readiness checks pass (as /q/health/ready), else 0")
        .register(registry);
    Gauge.builder("tmem.database.up", databaseUp, AtomicInteger::get)
        .description("1 when this replica reaches its PostgreSQL, else 0")
        .register(registry);
  }

  void route(@Observes Router router) {
    // Blocking: the readiness checks take a database connection.
    router
        .get(PATH)
        .blockingHandler(
            context -> {
              observeReadiness();
              context
                  .response()
                  .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                  .end(prometheus.scrape());
            },
            false);
  }

  private void observeReadiness() {
    SmallRyeHealth readiness = health.getReadiness();
    ready.set(readiness.isDown() ? 0 : 1);
    boolean database = false;
    for (JsonValue check : readiness.getPayload().getJsonArray("checks")) {
      JsonObject result = check.asJsonObject();
      if (DATABASE_CHECK.equals(result.getString("name", ""))) {
        database = "UP".equals(result.getString("status", ""));
      }
    }
    databaseUp.set(database ? 1 : 0);
  }

  private static MeterFilter latencyHistogram() {
    double[] bounds =
        LongStream.of(LATENCY_BUCKETS_MS)
            .mapToDouble(milliseconds -> Duration.ofMillis(milliseconds).toNanos())
            .toArray();
    return new MeterFilter() {
      @Override
      public DistributionStatisticConfig configure(
          Meter.Id id, DistributionStatisticConfig config) {
        if (!id.getName().equals("http.server.requests")) {
          return config;
        }
        return DistributionStatisticConfig.builder()
            .serviceLevelObjectives(bounds)
            .build()
            .merge(config);
      }
    };
  }
}
