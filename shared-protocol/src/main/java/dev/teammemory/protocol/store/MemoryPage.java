package dev.teammemory.protocol.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Optional;

/** One page of {@code GET …/memories}: memories (prefix rows are dropped) and the next cursor. */
public record MemoryPage(
    @JsonProperty("data") List<Row> data, @JsonProperty("next_page") String nextPage) {

  public MemoryPage {
    data = data == null ? List.of() : List.copyOf(data);
  }

  /** The memory rows of the page, without {@code memory_prefix} rows. */
  public List<StoredMemory> memories() {
    return data.stream()
        .filter(row -> "memory".equals(row.type()) && row.id() != null)
        .map(
            row ->
                new StoredMemory(row.id(), row.path(), row.contentSha256(), null, row.updatedBy()))
        .toList();
  }

  public Optional<String> next() {
    return Optional.ofNullable(nextPage).filter(page -> !page.isEmpty());
  }

  /** A row as listed: a memory, or a {@code memory_prefix} (a folder) without id. */
  public record Row(
      @JsonProperty("type") String type,
      @JsonProperty("id") String id,
      @JsonProperty("path") String path,
      @JsonProperty("content_sha256") String contentSha256,
      @JsonProperty("updated_by") UserActor updatedBy) {}
}
