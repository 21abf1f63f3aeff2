package dev.teammemory.server.memory;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * The current state of one key ({@code memory_entry}): its content, or a tombstone after an
 * explicit delete (content {@code ""}, checksum of the content it deleted).
 */
@Entity
@Table(name = "memory_entry")
class MemoryEntry extends PanacheEntityBase {

  @Id
  @SequenceGenerator(
      name = "memory_entry_id",
      sequenceName = "memory_entry_id_seq",
      allocationSize = 50)
  @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "memory_entry_id")
  public Long id;

  // A plain column rather than an association: nothing here ever needs the repository entity,
  // and the hot queries select by it.
  @Column(name = "repository_id")
  public long repositoryId;

  @Column(name = "entry_key")
  public String entryKey;

  public String content;

  public String checksum;

  @Column(name = "size_bytes")
  public int sizeBytes;

  /** The repository version that last wrote this key. */
  public long version;

  public boolean deleted;

  @Column(name = "updated_at")
  public Instant updatedAt;

  @Column(name = "updated_by")
  public String updatedBy;

  /** The memory id: kept by a rename, new when the key is created or revived. */
  @Column(name = "memory_id")
  public String memoryId;

  /** When this memory (this memory id) was created. */
  @Column(name = "created_at")
  public Instant createdAt;
}
