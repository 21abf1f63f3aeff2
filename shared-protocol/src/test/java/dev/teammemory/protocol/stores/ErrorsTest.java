package dev.teammemory.protocol.stores;

import static dev.teammemory.protocol.stores.StoreSuite.bearer;
import static dev.teammemory.protocol.stores.StoreSuite.createMemory;
import static dev.teammemory.protocol.stores.StoreSuite.newStore;
import static dev.teammemory.protocol.stores.StoreSuite.outsider;
import static dev.teammemory.protocol.stores.StoreSuite.reader;
import static dev.teammemory.protocol.stores.StoreSuite.refused;
import static dev.teammemory.protocol.stores.StoreSuite.writer;
import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.models.beta.memorystores.MemoryStoreCreateParams;
import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsMemory;
import com.anthropic.models.beta.memorystores.memories.MemoryCreateParams;
import com.anthropic.models.beta.memorystores.memories.MemoryListParams;
import com.anthropic.services.blocking.beta.MemoryStoreService;
import org.junit.jupiter.api.Test;

/** The 4xx answers of the table, each with its error type, as the SDK surfaces them. */
class ErrorsTest {

  private static MemoryCreateParams memory(String path, String content) {
    return MemoryCreateParams.builder().path(path).content(content).build();
  }

  @Test
  void anUnknownTokenIs401AuthenticationError() {
    MemoryStoreService stranger = bearer("not-a-token-of-this-server");
    refused(401, "authentication_error", () -> stranger.list());
  }

  @Test
  void aReaderWritingIs403PermissionError() {
    String store = newStore("read-only").id();
    refused(403, "permission_error", () -> reader().memories().create(store, memory("/x.md", "x")));
  }

  @Test
  void aStoreTheCallerCannotSeeOrThatDoesNotExistIs404NotFound() {
    String store = newStore("hidden").id();
    refused(404, "not_found_error", () -> outsider().retrieve(store));
    refused(404, "not_found_error", () -> reader().retrieve("memstore_doesnotexist"));
    refused(
        404,
        "not_found_error",
        () ->
            reader().memories().list("memstore_doesnotexist", MemoryListParams.builder().build()));
  }

  @Test
  void aStoreNotBoundToARepositoryIs400() {
    refused(
        400,
        "invalid_request_error",
        () -> writer().create(MemoryStoreCreateParams.builder().name("not a slug").build()));
  }

  @Test
  void badPathsAre400WithTheMessagesClaudeCodeMatches() {
    String store = newStore("paths").id();
    var dots =
        refused(
            400,
            "invalid_request_error",
            () -> writer().memories().create(store, memory("/a/../b.md", "x")));
    assertThat(dots.getMessage()).contains("path must not contain . or .. segments");
    var deep =
        refused(
            400,
            "invalid_request_error",
            () -> writer().memories().create(store, memory("/a".repeat(21) + ".md", "x")));
    assertThat(deep.getMessage()).contains("path must be at most 20 segments deep");
  }

  @Test
  void contentOver102400BytesIs400() {
    String store = newStore("big").id();
    var refusal =
        refused(
            400,
            "invalid_request_error",
            () -> writer().memories().create(store, memory("/big.md", "x".repeat(102_401))));
    assertThat(refusal.getMessage()).contains("content must be at most 102400 bytes");
  }

  @Test
  void aBodyOverTheServersLimitIs413() {
    String store = newStore("huge").id();
    String huge = "x".repeat(StoreSuite.config().maxBodyBytes() + 1);
    refused(
        413, "request_too_large", () -> writer().memories().create(store, memory("/h.md", huge)));
  }

  @Test
  void aFileCannotAlsoBeAFolder409PathConflict() {
    String store = newStore("conflict").id();
    BetaManagedAgentsMemory file = createMemory(store, "/notes.md", "a file");

    var refusal =
        refused(
            409,
            "memory_path_conflict_error",
            () -> writer().memories().create(store, memory("/notes.md/inner.md", "x")));

    assertThat(StoreSuite.errorField(refusal, "conflicting_path")).isEqualTo("/notes.md");
    assertThat(StoreSuite.errorField(refusal, "conflicting_memory_id")).isEqualTo(file.id());
    assertThat(refusal.headers().values("x-should-retry")).containsExactly("false");
  }
}
