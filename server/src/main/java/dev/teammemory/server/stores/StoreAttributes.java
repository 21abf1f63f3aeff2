package dev.teammemory.server.stores;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What the Memory Stores API may set on a store: its name (null means the slug), description and
 * metadata (a JSON object of strings, without the {@code repo} binding).
 */
record StoreAttributes(Optional<String> name, String description, String metadataJson) {

  StoreAttributes {
    requireNonNull(name, "name is null");
    requireNonNull(description, "description is null");
    requireNonNull(metadataJson, "metadataJson is null");
  }
}
