package dev.teammemory.server.stores;

import static java.util.Objects.requireNonNull;

import dev.teammemory.server.auth.RepositorySlug;
import java.time.Instant;
import java.util.Optional;

/**
 * One memory store as the database holds it: a repository row's store columns.
 *
 * @param repositoryId the repository row, which every memory and version of the store names
 * @param name the name it was given; empty means the repository's slug
 * @param metadataJson its metadata, a JSON object of strings, without the {@code repo} binding
 * @param updatedAt when its attributes last changed; empty when never since it was created
 */
public record StoreRow(
    long repositoryId,
    String id,
    RepositorySlug slug,
    Optional<String> name,
    String description,
    String metadataJson,
    Instant createdAt,
    Optional<Instant> updatedAt,
    Optional<Instant> archivedAt) {

  public StoreRow {
    requireNonNull(id, "id is null");
    requireNonNull(slug, "slug is null");
    requireNonNull(name, "name is null");
    requireNonNull(description, "description is null");
    requireNonNull(metadataJson, "metadataJson is null");
    requireNonNull(createdAt, "createdAt is null");
    requireNonNull(updatedAt, "updatedAt is null");
    requireNonNull(archivedAt, "archivedAt is null");
  }
}
