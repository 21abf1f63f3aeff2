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
}
