package dev.teammemory.server.memory;

import jakarta.persistence.EntityManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.hibernate.Session;

/**
 * The bulk read of a write: every key of the repository with its checksum (never its content), in
 * plain SQL on the transaction's own connection. An HQL projection of the same rows costs as much
 * CPU as the rest of the PUT (docs/benchmarks.md); these rows are values that never change the
 * session. They come in UTF-8 byte order of their keys ({@code COLLATE "C"} compares bytes), the
 * order of the repository checksum, so sorting them again costs one comparison a key.
 */
final class EntryRows {

  private static final String STATES =
      "SELECT entry_key, checksum, size_bytes, deleted FROM memory_entry"
          + " WHERE repository_id = ? ORDER BY entry_key COLLATE \"C\"";

  private EntryRows() {}

  /** Every key of the repository with its checksum, size and tombstone flag; no content. */
  static List<EntryState> states(EntityManager entityManager, long repositoryId) {
    return entityManager
        .unwrap(Session.class)
        .doReturningWork(
            connection -> {
              try (PreparedStatement statement = connection.prepareStatement(STATES)) {
                statement.setLong(1, repositoryId);
                try (ResultSet rows = statement.executeQuery()) {
                  List<EntryState> states = new ArrayList<>();
                  while (rows.next()) {
                    states.add(
                        new EntryState(
                            rows.getString(1),
                            rows.getString(2),
                            rows.getInt(3),
                            rows.getBoolean(4)));
                  }
                  return states;
                }
              }
            });
  }
}
