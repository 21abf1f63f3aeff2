package dev.teammemory.protocol.stores;

import static dev.teammemory.protocol.stores.StoreSuite.createMemory;
import static dev.teammemory.protocol.stores.StoreSuite.createParams;
import static dev.teammemory.protocol.stores.StoreSuite.freshRepo;
import static dev.teammemory.protocol.stores.StoreSuite.newStore;
import static dev.teammemory.protocol.stores.StoreSuite.outsider;
import static dev.teammemory.protocol.stores.StoreSuite.reader;
import static dev.teammemory.protocol.stores.StoreSuite.refused;
import static dev.teammemory.protocol.stores.StoreSuite.writer;
import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.core.JsonValue;
import com.anthropic.models.beta.memorystores.BetaManagedAgentsDeletedMemoryStore;
import com.anthropic.models.beta.memorystores.BetaManagedAgentsMemoryStore;
import com.anthropic.models.beta.memorystores.MemoryStoreListParams;
import com.anthropic.models.beta.memorystores.MemoryStoreUpdateParams;
import com.anthropic.models.beta.memorystores.memories.MemoryCreateParams;
import com.anthropic.models.beta.memorystores.memories.MemoryDeleteParams;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Stores through the official SDK: create, list, retrieve, update, archive, delete. */
class StoresTest {

  @Test
  void createReturnsTheStoreBoundToItsRepository() {
    String repo = freshRepo("create");
    BetaManagedAgentsMemoryStore store = writer().create(createParams(repo));

    assertThat(store.id()).startsWith("memstore_");
    assertThat(store.name()).isEqualTo("Team memory of " + repo);
    assertThat(store.description()).isEqualTo("made by the Memory Stores suite");
    assertThat(store.metadata()._additionalProperties())
        .containsEntry("repo", JsonValue.from(repo));
    assertThat(store.archivedAt()).isEmpty();
    assertThat(store._type()).isEqualTo(JsonValue.from("memory_store"));
  }

  @Test
  void creatingTheStoreOfARepositoryAgainReturnsTheSameStore() {
    String repo = freshRepo("again");
    BetaManagedAgentsMemoryStore first = writer().create(createParams(repo));
    BetaManagedAgentsMemoryStore second = writer().create(createParams(repo.toUpperCase()));

    assertThat(second.id()).isEqualTo(first.id());
  }

  @Test
  void theListHasTheStoresTheCallerMayReadAndOnlyThose() {
    BetaManagedAgentsMemoryStore store = newStore("listed");

    assertThat(allStoreIds(writer())).contains(store.id());
    assertThat(allStoreIds(reader())).contains(store.id());
    assertThat(allStoreIds(outsider())).doesNotContain(store.id());
  }

  @Test
  void retrieveReturnsWhatCreateReturned() {
    BetaManagedAgentsMemoryStore created = newStore("retrieve");

    BetaManagedAgentsMemoryStore read = reader().retrieve(created.id());

    assertThat(read.id()).isEqualTo(created.id());
    assertThat(read.name()).isEqualTo(created.name());
    assertThat(read.createdAt()).isEqualTo(created.createdAt());
  }

  @Test
  void updateChangesTheDescriptionAndMetadataButNotTheBinding() {
    BetaManagedAgentsMemoryStore created = newStore("update");

    BetaManagedAgentsMemoryStore updated =
        writer()
            .update(
                created.id(),
                MemoryStoreUpdateParams.builder()
                    .description("described again")
                    .metadata(
                        MemoryStoreUpdateParams.Metadata.builder()
                            .putAdditionalProperty("team", JsonValue.from("platform"))
                            .build())
                    .build());

    assertThat(updated.id()).isEqualTo(created.id());
    assertThat(updated.name()).isEqualTo(created.name());
    assertThat(updated.description()).isEqualTo("described again");
    assertThat(updated.metadata()._additionalProperties())
        .containsEntry("team", JsonValue.from("platform"))
        .containsEntry("repo", created.metadata()._additionalProperties().get("repo"));
    assertThat(reader().retrieve(created.id()).description()).isEqualTo("described again");
    // The name is part of the binding to the repository.
    refused(
        400,
        "invalid_request_error",
        () ->
            writer()
                .update(created.id(), MemoryStoreUpdateParams.builder().name("renamed").build()));
  }

  @Test
  void anArchivedStoreIsReadableButRefusesWrites() {
    BetaManagedAgentsMemoryStore created = newStore("archive");
    String kept = createMemory(created.id(), "/kept.md", "kept").id();

    BetaManagedAgentsMemoryStore archived = writer().archive(created.id());

    assertThat(archived.archivedAt()).isPresent();
    assertThat(reader().memories().list(created.id()).data()).hasSize(1);
    var refusal =
        refused(
            400,
            "invalid_request_error",
            () ->
                writer()
                    .memories()
                    .create(
                        created.id(),
                        MemoryCreateParams.builder().path("/new.md").content("new").build()));
    assertThat(refusal.getMessage()).contains("cannot modify archived resource");
    var deleteRefusal =
        refused(
            400,
            "invalid_request_error",
            () ->
                writer()
                    .memories()
                    .delete(
                        kept, MemoryDeleteParams.builder().memoryStoreId(created.id()).build()));
    assertThat(deleteRefusal.getMessage()).contains("cannot modify archived resource");
    assertThat(reader().memories().list(created.id()).data()).hasSize(1);
  }

  @Test
  void deleteRemovesTheStore() {
    BetaManagedAgentsMemoryStore created = newStore("delete");
    createMemory(created.id(), "/gone.md", "gone");

    BetaManagedAgentsDeletedMemoryStore deleted = writer().delete(created.id());

    assertThat(deleted.id()).isEqualTo(created.id());
    assertThat(deleted._type()).isEqualTo(JsonValue.from("memory_store_deleted"));
    refused(404, "not_found_error", () -> reader().retrieve(created.id()));
  }

  private static List<String> allStoreIds(
      com.anthropic.services.blocking.beta.MemoryStoreService client) {
    List<String> ids = new ArrayList<>();
    client
        .list(MemoryStoreListParams.builder().limit(100).build())
        .autoPager()
        .forEach(store -> ids.add(store.id()));
    return ids;
  }
}
