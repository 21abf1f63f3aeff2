package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import okhttp3.HttpUrl;

/**
 * How to reach Anthropic's Messages API. Read once from the environment at the edge: {@code
 * ANTHROPIC_API_KEY}, {@code ANTHROPIC_BASE_URL} (default {@code https://api.anthropic.com}),
 * {@code TMEM_MODEL} (the model that writes notes; default {@value #DEFAULT_MODEL}), {@code
 * TMEM_RECALL_MODEL} (the model that picks memories; default the same) and {@code
 * TMEM_MODEL_TIMEOUT_SECONDS} (how long one request may take; default 120).
 *
 * <p>{@link #toString()} never shows the key.
 */
public record ModelSettings(
    Optional<String> apiKey,
    HttpUrl baseUrl,
    String model,
    String recallModel,
    Duration connectTimeout,
    Duration requestTimeout,
    RetryPolicy retryPolicy) {

  public static final String DEFAULT_MODEL = "claude-sonnet-4-5";
  public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";

  public ModelSettings {
    requireNonNull(apiKey, "apiKey is null");
    requireNonNull(baseUrl, "baseUrl is null");
    requireNonNull(model, "model is null");
    requireNonNull(recallModel, "recallModel is null");
    requireNonNull(connectTimeout, "connectTimeout is null");
    requireNonNull(requestTimeout, "requestTimeout is null");
    requireNonNull(retryPolicy, "retryPolicy is null");
    apiKey = apiKey.map(String::strip).filter(key -> !key.isEmpty());
    if (model.isBlank() || recallModel.isBlank()) {
      throw new IllegalArgumentException("model names must not be blank");
    }
    if (!connectTimeout.isPositive() || !requestTimeout.isPositive()) {
      throw new IllegalArgumentException(
          "timeouts must be positive: " + connectTimeout + ", " + requestTimeout);
    }
  }

  /**
   * Reads the settings from environment variables.
   *
   * @throws IllegalArgumentException naming the variable and the value when one is malformed
   */
  public static ModelSettings fromEnvironment(Map<String, String> environment) {
    String baseUrl = nonBlank(environment.get("ANTHROPIC_BASE_URL")).orElse(DEFAULT_BASE_URL);
    HttpUrl url = HttpUrl.parse(baseUrl);
    if (url == null) {
      throw new IllegalArgumentException(
          "ANTHROPIC_BASE_URL is not an http or https URL: " + baseUrl);
    }
    String model = nonBlank(environment.get("TMEM_MODEL")).orElse(DEFAULT_MODEL);
    String recallModel = nonBlank(environment.get("TMEM_RECALL_MODEL")).orElse(model);
    Duration timeout = Duration.ofSeconds(120);
    Optional<String> timeoutSeconds = nonBlank(environment.get("TMEM_MODEL_TIMEOUT_SECONDS"));
    if (timeoutSeconds.isPresent()) {
      try {
        timeout = Duration.ofSeconds(Long.parseLong(timeoutSeconds.get()));
      } catch (NumberFormatException notANumber) {
        timeout = Duration.ZERO;
      }
      if (!timeout.isPositive()) {
        throw new IllegalArgumentException(
            "TMEM_MODEL_TIMEOUT_SECONDS must be a whole number of seconds above 0: "
                + timeoutSeconds.get());
      }
    }
    return new ModelSettings(
        nonBlank(environment.get("ANTHROPIC_API_KEY")),
        url,
        model,
        recallModel,
        Duration.ofSeconds(10),
        timeout,
        RetryPolicy.DEFAULT);
  }

  public ModelSettings withBaseUrl(HttpUrl newBaseUrl) {
    return new ModelSettings(
        apiKey, newBaseUrl, model, recallModel, connectTimeout, requestTimeout, retryPolicy);
  }

  public ModelSettings withRetryPolicy(RetryPolicy newRetryPolicy) {
    return new ModelSettings(
        apiKey, baseUrl, model, recallModel, connectTimeout, requestTimeout, newRetryPolicy);
  }

  public ModelSettings withRequestTimeout(Duration newRequestTimeout) {
    return new ModelSettings(
        apiKey, baseUrl, model, recallModel, connectTimeout, newRequestTimeout, retryPolicy);
  }

  @Override
  public String toString() {
    return "ModelSettings[apiKey="
        + (apiKey.isPresent() ? "(set)" : "(not set)")
        + ", baseUrl="
        + baseUrl
        + ", model="
        + model
        + ", recallModel="
        + recallModel
        + ", connectTimeout="
        + connectTimeout
        + ", requestTimeout="
        + requestTimeout
        + ", retryPolicy="
        + retryPolicy
        + "]";
  }

  private static Optional<String> nonBlank(String value) {
    return Optional.ofNullable(value).map(String::strip).filter(text -> !text.isEmpty());
  }
}
