package dev.teammemory.server.memory;

import dev.teammemory.server.secrets.SecretFinding;
import java.util.List;
import java.util.Map;

/** What a PUT came to. Only {@link Applied} wrote anything. */
sealed interface PutOutcome {

  /** At least one entry changed: a new version. */
  record Applied(RepositoryState state, Map<String, String> entryChecksums) implements PutOutcome {
    public Applied {
      entryChecksums = Map.copyOf(entryChecksums);
    }
  }

  /** Every entry already had its content (or there were none): version and checksum stay. */
  record Unchanged(RepositoryState state, Map<String, String> entryChecksums)
      implements PutOutcome {
    public Unchanged {
      entryChecksums = Map.copyOf(entryChecksums);
    }
  }

  /** {@code If-Match} did not name the current checksum. */
  record PreconditionFailed(String currentChecksum) implements PutOutcome {}

  /** The repository's memory store is archived: it takes no writes. */
  record Archived() implements PutOutcome {}

  /** More live entries after the merge than the cap. */
  record TooManyEntries(int maxEntries, int receivedEntries) implements PutOutcome {}

  /** More content bytes after the merge than the cap. */
  record RepositoryTooLarge(long maxBytes, long bytes) implements PutOutcome {}

  /** An entry holds a secret. */
  record SecretDetected(List<SecretFinding> findings) implements PutOutcome {
    public SecretDetected {
      findings = List.copyOf(findings);
    }
  }
}
