package dev.teammemory.protocol.stores;

import static dev.teammemory.protocol.stores.StoreSuite.createMemory;
import static dev.teammemory.protocol.stores.StoreSuite.newStore;
import static dev.teammemory.protocol.stores.StoreSuite.reader;
import static dev.teammemory.protocol.stores.StoreSuite.refused;
import static dev.teammemory.protocol.stores.StoreSuite.writer;
import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsMemory;
import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsMemoryView;
import com.anthropic.models.beta.memorystores.memories.MemoryUpdateParams;
import com.anthropic.models.beta.memorystores.memoryversions.BetaManagedAgentsMemoryVersion;
import com.anthropic.models.beta.memorystores.memoryversions.BetaManagedAgentsMemoryVersionOperation;
import com.anthropic.models.beta.memorystores.memoryversions.MemoryVersionListParams;
import com.anthropic.models.beta.memorystores.memoryversions.MemoryVersionRedactParams;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Memory versions through the official SDK: the list of a memory's versions, and redaction. */
class VersionsTest {

  @Test
  void everyWriteOfAMemoryIsAVersionNewestFirst() {
    String store = newStore("versions").id();
    BetaManagedAgentsMemory created = createMemory(store, "/v.md", "one");
    BetaManagedAgentsMemory updated = update(store, created.id(), "two");

    List<BetaManagedAgentsMemoryVersion> versions = versions(store, created.id());

    assertThat(versions)
        .extracting(BetaManagedAgentsMemoryVersion::id)
        .containsExactly(updated.memoryVersionId(), created.memoryVersionId());
    assertThat(versions)
        .extracting(BetaManagedAgentsMemoryVersion::operation)
        .containsExactly(
            BetaManagedAgentsMemoryVersionOperation.MODIFIED,
            BetaManagedAgentsMemoryVersionOperation.CREATED);
    assertThat(versions.get(1).content()).hasValue("one");
    assertThat(versions.get(1).memoryId()).isEqualTo(created.id());
    assertThat(versions.get(1).memoryStoreId()).isEqualTo(store);
  }

  @Test
  void redactingAnOldVersionEmptiesItAndTheCurrentOneCannotBeRedacted() {
    String store = newStore("redact").id();
    BetaManagedAgentsMemory created = createMemory(store, "/r.md", "leaked once");
    BetaManagedAgentsMemory updated = update(store, created.id(), "clean now");

    BetaManagedAgentsMemoryVersion redacted =
        writer()
            .memoryVersions()
            .redact(
                created.memoryVersionId(),
                MemoryVersionRedactParams.builder().memoryStoreId(store).build());

    assertThat(redacted.redactedAt()).isPresent();
    assertThat(redacted.content()).isEmpty();
    assertThat(redacted.path()).isEmpty();
    assertThat(redacted.contentSha256()).isEmpty();
    assertThat(versions(store, created.id()).get(1).content()).isEmpty();
    refused(
        400,
        "invalid_request_error",
        () ->
            writer()
                .memoryVersions()
                .redact(
                    updated.memoryVersionId(),
                    MemoryVersionRedactParams.builder().memoryStoreId(store).build()));
  }

  static BetaManagedAgentsMemory update(String store, String memory, String content) {
    return writer()
        .memories()
        .update(memory, MemoryUpdateParams.builder().memoryStoreId(store).content(content).build());
  }

  static List<BetaManagedAgentsMemoryVersion> versions(String store, String memory) {
    return reader()
        .memoryVersions()
        .list(
            store,
            MemoryVersionListParams.builder()
                .memoryId(memory)
                .view(BetaManagedAgentsMemoryView.FULL)
                .build())
        .data();
  }
}
