package dev.teammemory.server.memory;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** One repository's state: the row every write locks ({@code repository}). */
@Entity
@Table(name = "repository")
class Repository extends PanacheEntityBase {

  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  public Long id;

  /** {@code owner/name} as spelled by the first write. */
  public String slug;

  /** {@code lower(slug)}: the identity, since GitHub names are case-insensitive. */
  @Column(name = "slug_key")
  public String slugKey;

  public long version;

  public String checksum;

  @Column(name = "entry_count")
  public int entryCount;

  @Column(name = "total_bytes")
  public long totalBytes;

  @Column(name = "last_modified")
  public Instant lastModified;

  @Column(name = "created_at", insertable = false, updatable = false)
  public Instant createdAt;

  /** The id of the repository's memory store; a deleted store's repository gets a new one. */
  @Column(name = "store_id")
  public String storeId;

  /** The store's name; null means the slug. */
  @Column(name = "store_name")
  public String storeName;

  @Column(name = "store_description")
  public String storeDescription;

  /** The store's metadata, a JSON object of strings, without the {@code repo} binding. */
  @Column(name = "store_metadata")
  public String storeMetadata;

  @Column(name = "store_updated_at")
  public Instant storeUpdatedAt;

  @Column(name = "archived_at")
  public Instant archivedAt;
}
