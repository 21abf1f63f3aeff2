package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.daemon.files.FailureWords;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Anthropic's Messages API over okhttp: {@code POST /v1/messages} with {@code x-api-key} and {@code
 * anthropic-version: 2023-06-01}. Requests that fail for a reason that may pass (429, 529, other
 * 5xx, 408, 409, a dropped connection, a timeout) are retried with backoff, honouring {@code
 * retry-after} and {@code x-should-retry}; the rest fail at once. Failures are values, never
 * exceptions, and never carry the prompt or the key.
 */
public final class AnthropicLanguageModel implements LanguageModel {

  static final String API_VERSION = "2023-06-01";
  private static final MediaType JSON_TYPE = MediaType.get("application/json");

  private final ModelSettings settings;
  private final OkHttpClient http;
  private final RetryPolicy.Sleeper sleeper;

  public AnthropicLanguageModel(ModelSettings settings) {
    this(settings, RetryPolicy.Sleeper.THREAD);
  }

  AnthropicLanguageModel(ModelSettings settings, RetryPolicy.Sleeper sleeper) {
    this.settings = requireNonNull(settings, "settings is null");
    this.sleeper = requireNonNull(sleeper, "sleeper is null");
    if (settings.apiKey().isEmpty()) {
      throw new IllegalArgumentException("the Anthropic adapter needs ANTHROPIC_API_KEY");
    }
    this.http =
        new OkHttpClient.Builder()
            .connectTimeout(settings.connectTimeout())
            .readTimeout(settings.requestTimeout())
            .writeTimeout(settings.requestTimeout())
            .callTimeout(settings.requestTimeout().plus(settings.connectTimeout()))
            // Retries are ours, so that retry-after and the backoff apply to every kind of failure.
            .retryOnConnectionFailure(false)
            .build();
  }

  public ModelSettings settings() {
    return settings;
  }

  @Override
  public String describe() {
    return "anthropic " + settings.model() + " at " + settings.baseUrl();
  }

  /** Sends one request, retrying what may pass. */
  public ModelOutcome<ModelResponse> send(ModelRequest request) {
    requireNonNull(request, "request is null");
    String body = MessagesJson.request(request);
    Request httpRequest =
        new Request.Builder()
            .url(settings.baseUrl().newBuilder().addPathSegments("v1/messages").build())
            .header("x-api-key", settings.apiKey().orElseThrow())
            .header("anthropic-version", API_VERSION)
            .header("content-type", "application/json")
            .post(RequestBody.create(body, JSON_TYPE))
            .build();
    RetryPolicy policy = settings.retryPolicy();
    for (int attempt = 1; ; attempt++) {
      Attempt result = attempt(httpRequest, attempt);
      switch (result) {
        case Attempt.Done done -> {
          return done.outcome();
        }
        case Attempt.Retryable retryable -> {
          if (attempt > policy.maxRetries()) {
            return new ModelOutcome.Failed<>(retryable.failure());
          }
          int retry = attempt - 1;
          Duration delay = retryable.retryAfter().orElseGet(() -> jittered(policy.backoff(retry)));
          if (delay.compareTo(policy.maxRetryAfter()) > 0) {
            return new ModelOutcome.Failed<>(retryable.failure());
          }
          try {
            sleeper.sleep(delay);
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return new ModelOutcome.Failed<>(
                new ModelFailure(0, "interrupted", "interrupted while waiting to retry", attempt));
          }
        }
      }
    }
  }

  /**
   * Asks for structured output: the model is made to call one tool whose input schema is the
   * output's schema, and the tool's input is the answer.
   */
  public ModelOutcome<JsonNode> structured(
      String model,
      int maxTokens,
      String system,
      String prompt,
      String toolName,
      String toolDescription,
      JsonNode schema) {
    ToolDefinition tool = new ToolDefinition(toolName, toolDescription, schema);
    ModelOutcome<ModelResponse> outcome =
        send(
            new ModelRequest(
                model,
                maxTokens,
                system,
                List.of(ModelMessage.user(prompt)),
                List.of(tool),
                new ToolChoice.Tool(toolName)));
    return switch (outcome) {
      case ModelOutcome.Failed<ModelResponse> failed -> new ModelOutcome.Failed<>(failed.failure());
      case ModelOutcome.Answered<ModelResponse> answered ->
          structuredAnswer(answered.value(), toolName);
    };
  }

  private static ModelOutcome<JsonNode> structuredAnswer(ModelResponse response, String toolName) {
    for (ModelContent.ToolUse toolUse : response.toolUses()) {
      if (toolUse.name().equals(toolName) && toolUse.input().isObject()) {
        return new ModelOutcome.Answered<>(toolUse.input());
      }
    }
    // A gateway that does not force tool use may answer with the JSON as text instead.
    String text = response.text().strip();
    int start = text.indexOf('{');
    int end = text.lastIndexOf('}');
    if (start >= 0 && end > start) {
      try {
        JsonNode parsed = MessagesJson.JSON.readTree(text.substring(start, end + 1));
        if (parsed != null && parsed.isObject()) {
          return new ModelOutcome.Answered<>(parsed);
        }
      } catch (IOException notJson) {
        // Falls through to the failure below.
      }
    }
    return new ModelOutcome.Failed<>(
        new ModelFailure(
            200,
            "malformed_response",
            "the model answered without calling "
                + toolName
                + " (stop_reason "
                + response.stopReason()
                + ")",
            1));
  }

  private sealed interface Attempt {
    record Done(ModelOutcome<ModelResponse> outcome) implements Attempt {}

    record Retryable(ModelFailure failure, Optional<Duration> retryAfter) implements Attempt {}
  }

  private Attempt attempt(Request request, int attempt) {
    try (Response response = http.newCall(request).execute()) {
      ResponseBody responseBody = response.body();
      String body = responseBody == null ? "" : responseBody.string();
      int status = response.code();
      if (response.isSuccessful()) {
        return new Attempt.Done(
            MessagesJson.response(body)
                .<ModelOutcome<ModelResponse>>map(ModelOutcome.Answered::new)
                .orElseGet(
                    () ->
                        new ModelOutcome.Failed<>(
                            new ModelFailure(
                                status,
                                "malformed_response",
                                "the response body is not a Messages API message",
                                attempt))));
      }
      MessagesJson.ApiError error =
          MessagesJson.error(body)
              .orElseGet(() -> new MessagesJson.ApiError(defaultType(status), "HTTP " + status));
      ModelFailure failure = new ModelFailure(status, error.type(), error.message(), attempt);
      if (shouldRetry(status, response.header("x-should-retry"))) {
        return new Attempt.Retryable(failure, retryAfter(response));
      }
      return new Attempt.Done(new ModelOutcome.Failed<>(failure));
    } catch (InterruptedIOException timeout) {
      return new Attempt.Retryable(
          new ModelFailure(0, "network_error", "timed out: " + timeout.getMessage(), attempt),
          Optional.empty());
    } catch (IOException network) {
      return new Attempt.Retryable(
          new ModelFailure(0, "network_error", FailureWords.describe(network), attempt),
          Optional.empty());
    }
  }

  private static boolean shouldRetry(int status, String shouldRetryHeader) {
    if ("true".equals(shouldRetryHeader)) {
      return true;
    }
    if ("false".equals(shouldRetryHeader)) {
      return false;
    }
    return status == 408 || status == 409 || status == 429 || status >= 500;
  }

  private static String defaultType(int status) {
    return switch (status) {
      case 400 -> "invalid_request_error";
      case 401 -> "authentication_error";
      case 403 -> "permission_error";
      case 404 -> "not_found_error";
      case 413 -> "request_too_large";
      case 429 -> "rate_limit_error";
      case 529 -> "overloaded_error";
      default -> "api_error";
    };
  }

  /** {@code retry-after-ms}, else {@code retry-after} in seconds or as an HTTP date. */
  static Optional<Duration> retryAfter(Response response) {
    String millis = response.header("retry-after-ms");
    if (millis != null) {
      try {
        return Optional.of(Duration.ofMillis(Math.max(0, (long) Double.parseDouble(millis))));
      } catch (NumberFormatException ignored) {
        // Falls back to retry-after.
      }
    }
    String value = response.header("retry-after");
    if (value == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Duration.ofMillis(Math.max(0, (long) (Double.parseDouble(value) * 1000))));
    } catch (NumberFormatException notSeconds) {
      try {
        ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
        Duration until = Duration.between(ZonedDateTime.now(at.getZone()), at);
        return Optional.of(until.isNegative() ? Duration.ZERO : until);
      } catch (DateTimeParseException notADate) {
        return Optional.empty();
      }
    }
  }

  private static Duration jittered(Duration delay) {
    double factor = 1 - ThreadLocalRandom.current().nextDouble() * 0.25;
    return Duration.ofMillis((long) (delay.toMillis() * factor));
  }
}
