package dev.teammemory.server.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Serves {@code /q/metrics} in Prometheus's text format. Quarkus's own Prometheus endpoint comes
 * with the quarkus-micrometer-registry-prometheus extension, which this build cannot fetch; the
 * plain Micrometer registry is on the classpath, so it is joined to Quarkus's composite registry
 * here (every meter, Quarkus's HTTP timings included, reaches it) and scraped on request.
 */
@ApplicationScoped
class PrometheusEndpoint {

  static final String PATH = "/q/metrics";

  private final PrometheusMeterRegistry prometheus =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  @Inject
  PrometheusEndpoint(MeterRegistry registry) {
    if (registry instanceof CompositeMeterRegistry composite) {
      composite.add(prometheus);
    }
  }

  void route(@Observes Router router) {
    router
        .get(PATH)
        .handler(
            context ->
                context
                    .response()
                    .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                    .end(prometheus.scrape()));
  }
}
