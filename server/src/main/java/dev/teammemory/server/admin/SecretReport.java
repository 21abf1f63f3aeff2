package dev.teammemory.server.admin;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.teammemory.protocol.UnicodeText;
import dev.teammemory.server.secrets.SecretCheck;
import dev.teammemory.server.secrets.SecretFinding;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The stored entries the current secret rules would refuse, a page at a time: so that teams can
 * clean up (rename the key, or update the memory and purge the version) before their next edit of
 * such an entry is refused. A page walks the live entries in id order, fetching a few rows at a
 * time through a cursor and stopping after {@value #PAGE_ENTRIES} entries or {@value #PAGE_BYTES}
 * bytes of content, so that a report holds a few entries in memory however large the table.
 */
@ApplicationScoped
class SecretReport {

  static final int PAGE_ENTRIES = 1_000;
  static final long PAGE_BYTES = 16L * 1024 * 1024;
  private static final int FETCH_ROWS = 16;

  private static final String ENTRIES =
      "SELECT e.id, r.slug, e.entry_key, e.content FROM memory_entry e"
          + " JOIN repository r ON r.id = e.repository_id"
          + " WHERE NOT e.deleted AND e.id > ? ORDER BY e.id LIMIT ?";

  private final DataSource dataSource;
  private final SecretCheck secrets;

  @Inject
  SecretReport(DataSource dataSource, SecretCheck secrets) {
    this.dataSource = dataSource;
    this.secrets = secrets;
  }

  /** One stored secret: where it is, which rule, which line; never the match. */
  record Finding(String repo, String key, String field, String rule, int line) {}

  /**
   * A page of the report.
   *
   * @param nextPage where the next page starts, or null after the last entry
   */
  record Page(
      List<Finding> findings,
      @JsonProperty("scanned_entries") int scannedEntries,
      @JsonProperty("next_page") String nextPage) {}

  /** The page of entries after the entry with id {@code afterEntryId} (0: from the first). */
  Page after(long afterEntryId) {
    List<Finding> findings = new ArrayList<>();
    int scanned = 0;
    long bytes = 0;
    long last = afterEntryId;
    boolean more = false;
    try (Connection connection = dataSource.getConnection()) {
      // A cursor (it needs a transaction), so that the driver holds a few rows at a time rather
      // than the page.
      connection.setAutoCommit(false);
      try (PreparedStatement statement = connection.prepareStatement(ENTRIES)) {
        statement.setFetchSize(FETCH_ROWS);
        statement.setLong(1, afterEntryId);
        statement.setInt(2, PAGE_ENTRIES + 1);
        try (ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            if (scanned == PAGE_ENTRIES || bytes >= PAGE_BYTES) {
              more = true;
              break;
            }
            last = rows.getLong(1);
            String repo = rows.getString(2);
            String content = rows.getString(4);
            for (SecretFinding found : secrets.scan(Map.of(rows.getString(3), content))) {
              findings.add(
                  new Finding(
                      repo, found.key(), found.part().word(), found.ruleId(), found.line()));
            }
            scanned++;
            bytes += UnicodeText.utf8Length(content);
          }
        }
      } finally {
        connection.rollback();
        connection.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read the stored entries", e);
    }
    return new Page(List.copyOf(findings), scanned, more ? Long.toString(last) : null);
  }
}
