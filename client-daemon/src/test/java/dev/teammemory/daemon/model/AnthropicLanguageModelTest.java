package dev.teammemory.daemon.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The real adapter against a local server that speaks the Messages API's shapes. */
class AnthropicLanguageModelTest {

  static final String KEY = "sk-ant-test-0123456789";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final MockWebServer server = new MockWebServer();
  private final List<Duration> sleeps = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  static ModelSettings settings(MockWebServer server) {
    return ModelSettings.fromEnvironment(
            Map.of(
                "ANTHROPIC_API_KEY",
                KEY,
                "ANTHROPIC_BASE_URL",
                server.url("/").toString(),
                "TMEM_MODEL",
                "claude-test"))
        .withRetryPolicy(
            new RetryPolicy(
                3, Duration.ofMillis(100), Duration.ofSeconds(2), Duration.ofSeconds(60)));
  }

  private AnthropicLanguageModel model() {
    return new AnthropicLanguageModel(settings(server), sleeps::add);
  }

  static MockResponse message(String contentJson, String stopReason) {
    return new MockResponse.Builder()
        .code(200)
        .addHeader("content-type", "application/json")
        .body(
            "{\"id\":\"msg_01\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\",\"content\":"
                + contentJson
                + ",\"stop_reason\":\""
                + stopReason
                + "\",\"usage\":{\"input_tokens\":12,\"output_tokens\":5}}")
        .build();
  }

  static MockResponse error(int status, String type, String message) {
    return new MockResponse.Builder()
        .code(status)
        .addHeader("content-type", "application/json")
        .body(
            "{\"type\":\"error\",\"error\":{\"type\":\""
                + type
                + "\",\"message\":\""
                + message
                + "\"}}")
        .build();
  }

  private static ModelRequest request() {
    return new ModelRequest(
        "claude-test",
        100,
        "Be brief.",
        List.of(ModelMessage.user("Hello")),
        List.of(),
        new ToolChoice.Auto());
  }

  @Test
  void postsToMessagesWithKeyVersionAndBody() throws Exception {
    server.enqueue(message("[{\"type\":\"text\",\"text\":\"Hi!\"}]", "end_turn"));

    ModelOutcome<ModelResponse> outcome = model().send(request());

    assertThat(outcome).isInstanceOf(ModelOutcome.Answered.class);
    ModelResponse response = ((ModelOutcome.Answered<ModelResponse>) outcome).value();
    assertThat(response.text()).isEqualTo("Hi!");
    assertThat(response.stopReason()).isEqualTo("end_turn");
    assertThat(response.inputTokens()).isEqualTo(12);
    RecordedRequest recorded = server.takeRequest();
    assertThat(recorded.getMethod()).isEqualTo("POST");
    assertThat(recorded.getUrl().encodedPath()).isEqualTo("/v1/messages");
    assertThat(recorded.getHeaders().get("x-api-key")).isEqualTo(KEY);
    assertThat(recorded.getHeaders().get("anthropic-version")).isEqualTo("2023-06-01");
    JsonNode body = JSON.readTree(recorded.getBody().utf8());
    assertThat(body.path("model").asText()).isEqualTo("claude-test");
    assertThat(body.path("max_tokens").asInt()).isEqualTo(100);
    assertThat(body.path("system").asText()).isEqualTo("Be brief.");
    assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("user");
    assertThat(body.path("messages").get(0).path("content").get(0).path("text").asText())
        .isEqualTo("Hello");
    assertThat(body.has("tools")).isFalse();
    assertThat(body.has("tool_choice")).isFalse();
  }

  @Test
  void sendsToolsAndToolChoiceAndReadsToolUse() throws Exception {
    server.enqueue(
        message(
            "[{\"type\":\"text\",\"text\":\"Checking.\"},{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"Edit\",\"input\":{\"file_path\":\"/a\"}}]",
            "tool_use"));
    ModelRequest request =
        new ModelRequest(
            "claude-test",
            100,
            "",
            List.of(
                ModelMessage.user("Edit it"),
                new ModelMessage(
                    ModelMessage.Role.ASSISTANT,
                    List.of(
                        new ModelContent.ToolUse(
                            "toolu_0", "Edit", JSON.readTree("{\"file_path\":\"/a\"}")))),
                new ModelMessage(
                    ModelMessage.Role.USER,
                    List.of(new ModelContent.ToolResult("toolu_0", "denied", true)))),
            List.of(new FileEditTool().definition()),
            new ToolChoice.Any());

    ModelResponse response = ((ModelOutcome.Answered<ModelResponse>) model().send(request)).value();

    assertThat(response.toolUses())
        .singleElement()
        .satisfies(
            use -> {
              assertThat(use.name()).isEqualTo("Edit");
              assertThat(use.input().path("file_path").asText()).isEqualTo("/a");
            });
    JsonNode body = JSON.readTree(server.takeRequest().getBody().utf8());
    assertThat(body.has("system")).isFalse();
    assertThat(body.path("tools").get(0).path("name").asText()).isEqualTo("Edit");
    assertThat(body.path("tools").get(0).path("input_schema").path("required").toString())
        .contains("old_string");
    assertThat(body.path("tool_choice").path("type").asText()).isEqualTo("any");
    JsonNode result = body.path("messages").get(2).path("content").get(0);
    assertThat(result.path("type").asText()).isEqualTo("tool_result");
    assertThat(result.path("tool_use_id").asText()).isEqualTo("toolu_0");
    assertThat(result.path("is_error").asBoolean()).isTrue();
  }

  @Test
  void retriesOverloadedAndHonoursRetryAfter() {
    server.enqueue(
        new MockResponse.Builder(error(529, "overloaded_error", "Overloaded"))
            .addHeader("retry-after", "7")
            .build());
    server.enqueue(
        new MockResponse.Builder(error(429, "rate_limit_error", "Slow down"))
            .addHeader("retry-after-ms", "1500")
            .build());
    server.enqueue(message("[{\"type\":\"text\",\"text\":\"ok\"}]", "end_turn"));

    ModelOutcome<ModelResponse> outcome = model().send(request());

    assertThat(outcome).isInstanceOf(ModelOutcome.Answered.class);
    assertThat(sleeps).containsExactly(Duration.ofSeconds(7), Duration.ofMillis(1_500));
    assertThat(server.getRequestCount()).isEqualTo(3);
  }

  @Test
  void retriesServerErrorsWithGrowingBackoffAndThenGivesUp() {
    for (int i = 0; i < 4; i++) {
      server.enqueue(new MockResponse.Builder().code(502).body("<html>Bad Gateway</html>").build());
    }

    ModelOutcome<ModelResponse> outcome = model().send(request());

    ModelFailure failure = ((ModelOutcome.Failed<ModelResponse>) outcome).failure();
    assertThat(failure.httpStatus()).isEqualTo(502);
    assertThat(failure.type()).isEqualTo("api_error");
    assertThat(failure.attempts()).isEqualTo(4);
    assertThat(sleeps).hasSize(3);
    // Jitter takes off at most a quarter of 100, 200 and 400 ms.
    assertThat(sleeps.get(0)).isBetween(Duration.ofMillis(75), Duration.ofMillis(100));
    assertThat(sleeps.get(1)).isBetween(Duration.ofMillis(150), Duration.ofMillis(200));
    assertThat(sleeps.get(2)).isBetween(Duration.ofMillis(300), Duration.ofMillis(400));
  }

  @Test
  void doesNotRetryInvalidRequestsAndReportsTheApiMessage() {
    server.enqueue(
        error(400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"));

    ModelFailure failure = ((ModelOutcome.Failed<ModelResponse>) model().send(request())).failure();

    assertThat(failure.isPromptTooLong()).isTrue();
    assertThat(failure.describe())
        .isEqualTo(
            "HTTP 400 invalid_request_error: prompt is too long: 210000 tokens > 200000 maximum (after 1 attempt)");
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(sleeps).isEmpty();
  }

  @Test
  void aServerThatSaysDoNotRetryIsBelieved() {
    server.enqueue(
        new MockResponse.Builder(error(500, "api_error", "boom"))
            .addHeader("x-should-retry", "false")
            .build());

    assertThat(model().send(request())).isInstanceOf(ModelOutcome.Failed.class);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aRetryAfterBeyondTheLimitFailsInsteadOfWaiting() {
    server.enqueue(
        new MockResponse.Builder(error(429, "rate_limit_error", "later"))
            .addHeader("retry-after", "3600")
            .build());

    ModelFailure failure = ((ModelOutcome.Failed<ModelResponse>) model().send(request())).failure();

    assertThat(failure.type()).isEqualTo("rate_limit_error");
    assertThat(sleeps).isEmpty();
  }

  @Test
  void aTimeoutIsRetried() {
    AnthropicLanguageModel impatient =
        new AnthropicLanguageModel(
            settings(server).withRequestTimeout(Duration.ofMillis(300)), sleeps::add);
    server.enqueue(
        new MockResponse.Builder(message("[]", "end_turn"))
            .headersDelay(5, TimeUnit.SECONDS)
            .build());
    server.enqueue(message("[{\"type\":\"text\",\"text\":\"second time\"}]", "end_turn"));

    ModelOutcome<ModelResponse> outcome = impatient.send(request());

    assertThat(((ModelOutcome.Answered<ModelResponse>) outcome).value().text())
        .isEqualTo("second time");
    assertThat(sleeps).hasSize(1);
  }

  @Test
  void aSuccessThatIsNotAMessageIsAFailureNotACrash() {
    server.enqueue(new MockResponse.Builder().code(200).body("{\"unexpected\":true}").build());

    ModelFailure failure = ((ModelOutcome.Failed<ModelResponse>) model().send(request())).failure();

    assertThat(failure.type()).isEqualTo("malformed_response");
  }

  @Test
  void structuredOutputForcesTheToolAndReturnsItsInput() throws Exception {
    server.enqueue(
        message(
            "[{\"type\":\"tool_use\",\"id\":\"toolu_9\",\"name\":\"answer\",\"input\":{\"selected_memories\":[\"a.md\"]}}]",
            "tool_use"));

    ModelOutcome<JsonNode> outcome =
        model()
            .structured(
                "claude-test",
                256,
                "Pick.",
                "Query: x",
                "answer",
                "The answer.",
                JSON.readTree("{\"type\":\"object\"}"));

    assertThat(
            ((ModelOutcome.Answered<JsonNode>) outcome)
                .value()
                .path("selected_memories")
                .get(0)
                .asText())
        .isEqualTo("a.md");
    JsonNode body = JSON.readTree(server.takeRequest().getBody().utf8());
    assertThat(body.path("tool_choice").toString())
        .isEqualTo("{\"type\":\"tool\",\"name\":\"answer\"}");
  }

  @Test
  void structuredOutputAcceptsJsonTextFromAGatewayThatIgnoresToolChoice() throws Exception {
    server.enqueue(
        message(
            "[{\"type\":\"text\",\"text\":\"Here: {\\\"selected_memories\\\": []}\"}]",
            "end_turn"));

    ModelOutcome<JsonNode> outcome =
        model()
            .structured(
                "claude-test",
                256,
                "Pick.",
                "Query: x",
                "answer",
                "The answer.",
                JSON.readTree("{\"type\":\"object\"}"));

    assertThat(
            ((ModelOutcome.Answered<JsonNode>) outcome).value().path("selected_memories").isArray())
        .isTrue();
  }

  @Test
  void neitherSettingsNorFailuresShowTheKey() {
    server.enqueue(error(401, "authentication_error", "invalid x-api-key"));

    ModelFailure failure = ((ModelOutcome.Failed<ModelResponse>) model().send(request())).failure();

    assertThat(failure.describe()).doesNotContain(KEY);
    assertThat(settings(server).toString()).doesNotContain(KEY).contains("apiKey=(set)");
  }

  @Test
  void withoutAKeyTheOfflineModelIsChosen() {
    assertThat(LanguageModel.fromEnvironment(Map.of()))
        .isEqualTo(new OfflineLanguageModel("ANTHROPIC_API_KEY is not set"));
    assertThat(LanguageModel.fromEnvironment(Map.of("ANTHROPIC_API_KEY", "  ")))
        .isInstanceOf(OfflineLanguageModel.class);
    assertThat(LanguageModel.fromEnvironment(Map.of("ANTHROPIC_API_KEY", KEY, "TMEM_OFFLINE", "1")))
        .isEqualTo(new OfflineLanguageModel("TMEM_OFFLINE is set"));
    assertThat(LanguageModel.fromEnvironment(Map.of("ANTHROPIC_API_KEY", KEY)))
        .isInstanceOf(AnthropicLanguageModel.class);
  }

  @Test
  void modelNamesAndBaseUrlComeFromTheEnvironment() {
    ModelSettings settings =
        ModelSettings.fromEnvironment(
            Map.of(
                "ANTHROPIC_BASE_URL",
                "https://gateway.example/anthropic/",
                "TMEM_MODEL",
                "claude-opus-4-1",
                "TMEM_RECALL_MODEL",
                "claude-haiku-4-5"));

    assertThat(settings.baseUrl().toString()).isEqualTo("https://gateway.example/anthropic/");
    assertThat(settings.model()).isEqualTo("claude-opus-4-1");
    assertThat(settings.recallModel()).isEqualTo("claude-haiku-4-5");
    assertThat(settings.apiKey()).isEqualTo(Optional.empty());
    assertThat(ModelSettings.fromEnvironment(Map.of()).model())
        .isEqualTo(ModelSettings.DEFAULT_MODEL);
  }

  @Test
  void aMalformedBaseUrlIsRejectedByName() {
    assertThatThrownBy(
            () -> ModelSettings.fromEnvironment(Map.of("ANTHROPIC_BASE_URL", "localhost:8080")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ANTHROPIC_BASE_URL is not an http or https URL: localhost:8080");
    assertThatThrownBy(
            () -> ModelSettings.fromEnvironment(Map.of("TMEM_MODEL_TIMEOUT_SECONDS", "soon")))
        .hasMessage("TMEM_MODEL_TIMEOUT_SECONDS must be a whole number of seconds above 0: soon");
  }
}
