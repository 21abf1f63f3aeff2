package dev.teammemory.protocol.store;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The answer to deleting a memory: {@code {id, type: "memory_deleted"}}. */
public record MemoryDeleted(
    @JsonProperty(value = "id", required = true) String id,
    @JsonProperty(value = "type", required = true) String type) {}
