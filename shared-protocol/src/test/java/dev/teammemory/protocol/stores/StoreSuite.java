package dev.teammemory.protocol.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.models.beta.memorystores.BetaManagedAgentsMemoryStore;
import com.anthropic.models.beta.memorystores.MemoryStoreCreateParams;
import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsMemory;
import com.anthropic.models.beta.memorystores.memories.MemoryCreateParams;
import com.anthropic.services.blocking.beta.MemoryStoreService;
import dev.teammemory.protocol.suite.SuiteConfig;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * What every test of the Memory Stores suite shares: the server and tokens of {@link SuiteConfig}
 * (the same settings as the {@code team_memory} protocol suite), and clients of the official Java
 * SDK pointed at that server. The writer's client sends its token as {@code Authorization: Bearer}
 * (newer SDKs), the reader's as {@code x-api-key} (older SDKs), so both headers are exercised.
 */
final class StoreSuite {

  private static SuiteConfig config;

  private StoreSuite() {}

  static synchronized SuiteConfig config() {
    if (config == null) {
      config = SuiteConfig.load();
    }
    return config;
  }

  /** The SDK's client as an application would build it: base URL and a token, no retries. */
  static MemoryStoreService bearer(String token) {
    return client(AnthropicOkHttpClient.builder().authToken(token));
  }

  static MemoryStoreService apiKey(String token) {
    return client(AnthropicOkHttpClient.builder().apiKey(token));
  }

  private static MemoryStoreService client(AnthropicOkHttpClient.Builder builder) {
    // No retries: the suite checks each answer itself, and a retried 429 or 409 would hide one.
    AnthropicClient client =
        builder
            .baseUrl(config().url().toString())
            .maxRetries(0)
            .timeout(Duration.ofSeconds(60))
            .build();
    return client.beta().memoryStores();
  }

  static MemoryStoreService writer() {
    return bearer(config().writerToken());
  }

  static MemoryStoreService reader() {
    return apiKey(config().readerToken());
  }

  static MemoryStoreService outsider() {
    return bearer(config().outsiderToken());
  }

  /** A repository of the configured owner that no other test uses. */
  static String freshRepo(String prefix) {
    return config().owner()
        + "/stores-"
        + prefix
        + "-"
        + UUID.randomUUID().toString().substring(0, 8);
  }

  /** Creates the store of a fresh repository, bound by {@code metadata.repo}. */
  static BetaManagedAgentsMemoryStore newStore(String prefix) {
    String repo = freshRepo(prefix);
    return writer().create(createParams(repo));
  }

  static MemoryStoreCreateParams createParams(String repo) {
    return MemoryStoreCreateParams.builder()
        .name("Team memory of " + repo)
        .description("made by the Memory Stores suite")
        .metadata(
            MemoryStoreCreateParams.Metadata.builder()
                .putAdditionalProperty("repo", JsonValue.from(repo))
                .build())
        .build();
  }

  static BetaManagedAgentsMemory createMemory(String store, String path, String content) {
    return writer()
        .memories()
        .create(store, MemoryCreateParams.builder().path(path).content(content).build());
  }

  /** The refusal {@code call} ends in, checked for its status and its error type. */
  static AnthropicServiceException refused(int status, String type, ThrowingCallable call) {
    AnthropicServiceException refusal = catchThrowableOfType(AnthropicServiceException.class, call);
    assertThat(refusal).as("the server refused the call").isNotNull();
    assertThat(refusal.statusCode()).as("status of %s", refusal.body()).isEqualTo(status);
    assertThat(errorField(refusal, "type")).as("error type of %s", refusal.body()).isEqualTo(type);
    assertThat(envelope(refusal).get("type")).isEqualTo("error");
    return refusal;
  }

  /** A member of the envelope's {@code error} object, as a string ("" when missing). */
  static String errorField(AnthropicServiceException refusal, String name) {
    Object error = envelope(refusal).get("error");
    Object field = error instanceof Map<?, ?> members ? members.get(name) : null;
    return field == null ? "" : field.toString();
  }

  static Map<?, ?> envelope(AnthropicServiceException refusal) {
    Object body = refusal.body().convert(Object.class);
    assertThat(body).as("the error body").isInstanceOf(Map.class);
    return (Map<?, ?>) body;
  }
}
