package dev.teammemory.protocol.stores;

import static dev.teammemory.protocol.stores.StoreSuite.createMemory;
import static dev.teammemory.protocol.stores.StoreSuite.newStore;
import static dev.teammemory.protocol.stores.StoreSuite.reader;
import static dev.teammemory.protocol.stores.StoreSuite.refused;
import static dev.teammemory.protocol.stores.StoreSuite.writer;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.core.JsonValue;
import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsDeletedMemory;
import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsMemory;
import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsMemoryListItem;
import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsMemoryView;
import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsPrecondition;
import com.anthropic.models.beta.memorystores.memories.MemoryCreateParams;
import com.anthropic.models.beta.memorystores.memories.MemoryDeleteParams;
import com.anthropic.models.beta.memorystores.memories.MemoryListPage;
import com.anthropic.models.beta.memorystores.memories.MemoryListParams;
import com.anthropic.models.beta.memorystores.memories.MemoryRetrieveParams;
import com.anthropic.models.beta.memorystores.memories.MemoryUpdateParams;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Memories through the official SDK. */
class MemoriesTest {

  static String sha256(String content) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(content.getBytes(UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static BetaManagedAgentsPrecondition sha(String contentSha256) {
    return BetaManagedAgentsPrecondition.builder()
        .type(JsonValue.from("content_sha256"))
        .contentSha256(contentSha256)
        .build();
  }

  @Test
  void createReturnsTheMemoryWithItsChecksumAndSize() {
    String store = newStore("memories").id();

    BetaManagedAgentsMemory memory = createMemory(store, "/testing/no-mocks.md", "Never mock é");

    assertThat(memory.id()).matches("mem_[A-Za-z0-9_-]{1,120}");
    assertThat(memory.memoryStoreId()).isEqualTo(store);
    assertThat(memory.path()).isEqualTo("/testing/no-mocks.md");
    assertThat(memory.contentSha256()).isEqualTo(sha256("Never mock é"));
    assertThat(memory.contentSizeBytes()).isEqualTo("Never mock é".getBytes(UTF_8).length);
    assertThat(memory.memoryVersionId()).startsWith("memver_");
  }

  @Test
  void createWithTheNotExistsPreconditionRefusesAnExistingPath() {
    String store = newStore("not-exists").id();
    BetaManagedAgentsMemory first = createMemory(store, "/a.md", "first");

    refused(
        409,
        "memory_precondition_failed_error",
        () ->
            writer()
                .memories()
                .create(
                    store,
                    MemoryCreateParams.builder()
                        .path("/a.md")
                        .content("second")
                        .putAdditionalBodyProperty(
                            "precondition", JsonValue.from(Map.of("type", "not_exists")))
                        .build()));
    assertThat(content(store, "/a.md")).isEqualTo("first");
    assertThat(list(store, MemoryListParams.builder()))
        .singleElement()
        .satisfies(item -> assertThat(item.asMemory().id()).isEqualTo(first.id()));
  }

  @Test
  void retrieveGivesContentInTheFullViewOnly() {
    String store = newStore("views").id();
    BetaManagedAgentsMemory created = createMemory(store, "/v.md", "viewed");

    BetaManagedAgentsMemory full =
        reader().memories().retrieve(created.id(), retrieve(store, null));
    BetaManagedAgentsMemory basic =
        reader()
            .memories()
            .retrieve(created.id(), retrieve(store, BetaManagedAgentsMemoryView.BASIC));

    assertThat(full.content()).hasValue("viewed");
    assertThat(basic.content()).isEmpty();
    assertThat(basic.contentSha256()).isEqualTo(full.contentSha256());
  }

  @Test
  void listWithAPrefixAndDepthOneGivesChildrenAndFolders() {
    String store = newStore("depth").id();
    createMemory(store, "/top.md", "t");
    createMemory(store, "/dir/a.md", "a");
    createMemory(store, "/dir/sub/b.md", "b");
    createMemory(store, "/other/c.md", "c");

    List<String> all = paths(list(store, MemoryListParams.builder().depth(0)));
    List<String> underDir = paths(list(store, MemoryListParams.builder().pathPrefix("/dir/")));
    List<String> children =
        paths(list(store, MemoryListParams.builder().pathPrefix("/dir/").depth(1)));
    List<BetaManagedAgentsMemoryListItem> top = list(store, MemoryListParams.builder().depth(1));

    assertThat(all).containsExactly("/dir/a.md", "/dir/sub/b.md", "/other/c.md", "/top.md");
    assertThat(underDir).containsExactly("/dir/a.md", "/dir/sub/b.md");
    assertThat(children).containsExactly("/dir/a.md", "/dir/sub/");
    assertThat(
            top.stream()
                .filter(BetaManagedAgentsMemoryListItem::isMemoryPrefix)
                .map(i -> i.asMemoryPrefix().path()))
        .containsExactly("/dir/", "/other/");
    assertThat(
            top.stream()
                .filter(BetaManagedAgentsMemoryListItem::isMemory)
                .map(i -> i.asMemory().path()))
        .containsExactly("/top.md");
  }

  @Test
  void listOrdersByPathBothWays() {
    String store = newStore("order").id();
    for (String path : List.of("/b.md", "/a.md", "/c.md")) {
      createMemory(store, path, path);
    }

    List<String> ascending =
        paths(list(store, MemoryListParams.builder().putAdditionalQueryParam("order", "asc")));
    List<String> descending =
        paths(list(store, MemoryListParams.builder().putAdditionalQueryParam("order", "desc")));

    assertThat(ascending).containsExactly("/a.md", "/b.md", "/c.md");
    assertThat(descending).containsExactly("/c.md", "/b.md", "/a.md");
  }

  @Test
  void paginationWalksMoreThan250MemoriesOnceEach() {
    String store = newStore("pages").id();
    for (int i = 0; i < 260; i++) {
      createMemory(store, "/many/%03d.md".formatted(i), "memory " + i);
    }

    MemoryListPage first =
        reader().memories().list(store, MemoryListParams.builder().limit(100).build());
    List<String> seen = new ArrayList<>();
    int pages = 0;
    for (MemoryListPage page = first; ; page = page.nextPage()) {
      pages++;
      assertThat(page.data()).hasSizeLessThanOrEqualTo(100);
      page.data().forEach(item -> seen.add(item.asMemory().path()));
      if (!page.hasNextPage()) {
        break;
      }
    }

    assertThat(pages).isEqualTo(3);
    assertThat(seen).hasSize(260).doesNotHaveDuplicates().isSorted();
  }

  @Test
  void anUpdateWithAFreshChecksumAppliesAndAStaleOneIs409() {
    String store = newStore("precondition").id();
    BetaManagedAgentsMemory created = createMemory(store, "/p.md", "one");

    BetaManagedAgentsMemory updated =
        writer()
            .memories()
            .update(
                created.id(),
                MemoryUpdateParams.builder()
                    .memoryStoreId(store)
                    .content("two")
                    .precondition(sha(created.contentSha256()))
                    .build());
    var refusal =
        refused(
            409,
            "memory_precondition_failed_error",
            () ->
                writer()
                    .memories()
                    .update(
                        created.id(),
                        MemoryUpdateParams.builder()
                            .memoryStoreId(store)
                            .content("three")
                            .precondition(sha(created.contentSha256()))
                            .build()));

    assertThat(updated.contentSha256()).isEqualTo(sha256("two"));
    assertThat(updated.memoryVersionId()).isNotEqualTo(created.memoryVersionId());
    assertThat(refusal.headers().values("x-should-retry")).containsExactly("false");
    assertThat(content(store, "/p.md")).isEqualTo("two");
  }

  @Test
  void anUpdateThatChangesNothingIs200EvenWithAStaleChecksum() {
    String store = newStore("same").id();
    BetaManagedAgentsMemory created = createMemory(store, "/s.md", "same");

    BetaManagedAgentsMemory again =
        writer()
            .memories()
            .update(
                created.id(),
                MemoryUpdateParams.builder()
                    .memoryStoreId(store)
                    .content("same")
                    .precondition(sha(sha256("something else")))
                    .build());

    assertThat(again.memoryVersionId()).isEqualTo(created.memoryVersionId());
  }

  @Test
  void aRenameKeepsTheId() {
    String store = newStore("rename").id();
    BetaManagedAgentsMemory created = createMemory(store, "/old/name.md", "moved");

    BetaManagedAgentsMemory renamed =
        writer()
            .memories()
            .update(
                created.id(),
                MemoryUpdateParams.builder().memoryStoreId(store).path("/new/name.md").build());

    assertThat(renamed.id()).isEqualTo(created.id());
    assertThat(renamed.path()).isEqualTo("/new/name.md");
    assertThat(paths(list(store, MemoryListParams.builder()))).containsExactly("/new/name.md");
  }

  @Test
  void deleteWithoutAPreconditionRemovesTheMemory() {
    String store = newStore("delete").id();
    BetaManagedAgentsMemory created = createMemory(store, "/d.md", "doomed");

    BetaManagedAgentsDeletedMemory deleted =
        writer()
            .memories()
            .delete(created.id(), MemoryDeleteParams.builder().memoryStoreId(store).build());

    assertThat(deleted.id()).isEqualTo(created.id());
    assertThat(deleted._type()).isEqualTo(JsonValue.from("memory_deleted"));
    assertThat(list(store, MemoryListParams.builder())).isEmpty();
    refused(
        404,
        "not_found_error",
        () -> reader().memories().retrieve(created.id(), retrieve(store, null)));
  }

  @Test
  void deleteWithAStaleChecksumIs409AndKeepsTheMemoryAndAFreshOneDeletes() {
    String store = newStore("delete-sha").id();
    BetaManagedAgentsMemory created = createMemory(store, "/d.md", "kept");

    refused(
        409,
        "memory_precondition_failed_error",
        () ->
            writer()
                .memories()
                .delete(
                    created.id(),
                    MemoryDeleteParams.builder()
                        .memoryStoreId(store)
                        .expectedContentSha256(sha256("not the content"))
                        .build()));
    assertThat(content(store, "/d.md")).isEqualTo("kept");

    writer()
        .memories()
        .delete(
            created.id(),
            MemoryDeleteParams.builder()
                .memoryStoreId(store)
                .expectedContentSha256(created.contentSha256())
                .build());
    assertThat(list(store, MemoryListParams.builder())).isEmpty();
  }

  static MemoryRetrieveParams retrieve(String store, BetaManagedAgentsMemoryView view) {
    MemoryRetrieveParams.Builder builder = MemoryRetrieveParams.builder().memoryStoreId(store);
    if (view != null) {
      builder.view(view);
    }
    return builder.build();
  }

  static List<BetaManagedAgentsMemoryListItem> list(String store, MemoryListParams.Builder params) {
    return reader().memories().list(store, params.build()).data();
  }

  static List<String> paths(List<BetaManagedAgentsMemoryListItem> items) {
    return items.stream().map(BetaManagedAgentsMemoryListItem::path).toList();
  }

  /** The content of the memory at {@code path}, read by listing and retrieving. */
  static String content(String store, String path) {
    for (BetaManagedAgentsMemoryListItem item : list(store, MemoryListParams.builder())) {
      if (item.isMemory() && item.asMemory().path().equals(path)) {
        return reader()
            .memories()
            .retrieve(item.asMemory().id(), retrieve(store, null))
            .content()
            .orElseThrow();
      }
    }
    throw new AssertionError("no memory at " + path);
  }
}
