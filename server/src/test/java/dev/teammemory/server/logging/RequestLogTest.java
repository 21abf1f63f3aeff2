package dev.teammemory.server.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RequestLogTest {

  @Test
  void durationsAreMillisecondsWithOneDecimalRoundedHalfUp() {
    assertThat(RequestLog.milliseconds(0)).isEqualTo("0.0");
    assertThat(RequestLog.milliseconds(49_999)).isEqualTo("0.0");
    assertThat(RequestLog.milliseconds(50_000)).isEqualTo("0.1");
    assertThat(RequestLog.milliseconds(1_234_567)).isEqualTo("1.2");
    assertThat(RequestLog.milliseconds(1_250_000)).isEqualTo("1.3");
    assertThat(RequestLog.milliseconds(12_345_678_901L)).isEqualTo("12345.7");
  }

  @Test
  void aMadeRequestIdLooksLikeTheAnthropicApisAndAPlausibleOfferedOneIsKept() {
    String made = RequestLog.requestId(null);

    assertThat(made).matches("req_[0-9a-f]{16}");
    assertThat(RequestLog.requestId("not plausible!")).matches("req_[0-9a-f]{16}");
    assertThat(RequestLog.requestId(made)).isEqualTo(made);
    assertThat(RequestLog.requestId("proxy-4711")).isEqualTo("proxy-4711");
  }

  @Test
  void aLoggedPathShowsRouteWordsAndServerIdsAndNothingACallerMadeUp() {
    assertThat(RequestLog.shownPath("/api/claude_code/team_memory/history"))
        .isEqualTo("/api/claude_code/team_memory/history");
    String store = "memstore_" + "0123456789abcdef".repeat(2);
    String memory = "mem_" + "fedcba9876543210".repeat(2);
    assertThat(RequestLog.shownPath("/v1/memory_stores/" + store + "/memories/" + memory))
        .isEqualTo("/v1/memory_stores/" + store + "/memories/" + memory);
    assertThat(RequestLog.shownPath("/v1/memory_stores/" + store + "/memory_versions/memver_42"))
        .isEqualTo("/v1/memory_stores/" + store + "/memory_versions/memver_42");
    assertThat(RequestLog.shownPath("/v1/memory_stores/ghp_Secret123/memories/mem_%00/"))
        .isEqualTo("/v1/memory_stores/*/memories/*/");
    assertThat(RequestLog.shownPath("/v1/memory_stores/MARKER-1/x"))
        .isEqualTo("/v1/memory_stores/*/x");
  }
}
