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
 * One content a key had, written by one repository version ({@code memory_entry_version}). The
 * newest row of a key is its current state, so history shows the present as well as the past.
 */
@Entity
@Table(name = "memory_entry_version")
class EntryVersion extends PanacheEntityBase {

  @Id
  @SequenceGenerator(
      name = "memory_entry_version_id",
      sequenceName = "memory_entry_version_id_seq",
      allocationSize = 50)
  @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "memory_entry_version_id")
  public Long id;

  @Column(name = "repository_id")
  public long repositoryId;

  @Column(name = "entry_key")
  public String entryKey;

  public long version;

  public String content;

  public String checksum;

  public boolean deleted;

  public String author;

  @Column(name = "created_at")
  public Instant createdAt;

  /** The memory this version belongs to; null for the tombstone a rename leaves at the old key. */
  @Column(name = "memory_id")
  public String memoryId;

  /** What the version did to its memory: one of {@link Operation}'s wire names. */
  public String operation;

  @Column(name = "redacted_at")
  public Instant redactedAt;

  @Column(name = "redacted_by")
  public String redactedBy;

  /** The version a write just made of the entry, for its memory. */
  static EntryVersion of(MemoryEntry entry, Operation operation) {
    EntryVersion kept = of(entry);
    kept.operation = operation.wireName();
    kept.memoryId = operation == Operation.MOVED ? null : entry.memoryId;
    return kept;
  }

  private static EntryVersion of(MemoryEntry entry) {
    EntryVersion kept = new EntryVersion();
    kept.repositoryId = entry.repositoryId;
    kept.entryKey = entry.entryKey;
    kept.version = entry.version;
    kept.content = entry.content;
    kept.checksum = entry.checksum;
    kept.deleted = entry.deleted;
    kept.author = entry.updatedBy;
    kept.createdAt = entry.updatedAt;
    return kept;
  }
}
