package dev.teammemory.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PrometheusQueriesTest {

  @Test
  void selectorsAreTheMetricNamesAndTheirMatchersLabelsNotFunctionsOrGroupings() {
    Map<String, Set<String>> selectors =
        PrometheusQueries.selectors(
            List.of(
                "histogram_quantile(0.95, sum by (le, uri) (rate("
                    + "http_server_requests_seconds_bucket{uri!~\"/q/.*|a,b\"}[5m]))) > 0.5",
                "up{job=\"team-memory\"} == 0 or tmem_ready == 0",
                "1 - sum(rate(tmem_github_calls_total{endpoint=\"user\", outcome=~\"ok\"}[5m]))"
                    + " / sum without (instance) (rate(tmem_github_token_checks_total[5m]))"));

    assertThat(selectors)
        .containsOnlyKeys(
            "http_server_requests_seconds_bucket",
            "up",
            "tmem_ready",
            "tmem_github_calls_total",
            "tmem_github_token_checks_total");
    assertThat(selectors.get("http_server_requests_seconds_bucket")).containsExactly("uri");
    assertThat(selectors.get("tmem_github_calls_total")).containsExactly("endpoint", "outcome");
    assertThat(selectors.get("tmem_ready")).isEmpty();
  }

  @Test
  void exportedMetricsComeWithTheirLabelNames() {
    Map<String, Set<String>> exported =
        PrometheusQueries.exported(
            """
            # HELP tmem_ready 1 when ready
            # TYPE tmem_ready gauge
            tmem_ready 1.0
            tmem_rejections_total{error_code="secret_detected"} 2.0
            http_server_requests_seconds_bucket{method="GET",status="200",uri="/x",le="0.005"} 0
            """);

    assertThat(exported)
        .containsOnlyKeys(
            "tmem_ready", "tmem_rejections_total", "http_server_requests_seconds_bucket");
    assertThat(exported.get("tmem_rejections_total")).containsExactly("error_code");
    assertThat(exported.get("http_server_requests_seconds_bucket"))
        .containsExactly("method", "status", "uri", "le");
  }
}
