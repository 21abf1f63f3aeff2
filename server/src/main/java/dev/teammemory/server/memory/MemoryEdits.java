package dev.teammemory.server.memory;

import dev.teammemory.protocol.Keys;
import dev.teammemory.protocol.UnicodeText;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.limits.LimitsConfig;
import dev.teammemory.server.secrets.SecretCheck;
import dev.teammemory.server.secrets.SecretFinding;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The console's writes, through the same store, limits, secret scan, history and change feed as the
 * team memory API's PUT, DELETE and history purge: a memory saved here reaches every daemon the way
 * a pushed one does. Each write carries the key's version the page showed, so a change in between
 * is refused instead of overwritten. The caller has passed the write check.
 */
@ApplicationScoped
public class MemoryEdits {

  private static final Logger LOG = Logger.getLogger(MemoryEdits.class);

  private final EntryStore store;
  private final SecretCheck secrets;
  private final LimitsConfig limits;
  private final MemoryMetrics metrics;

  @Inject
  MemoryEdits(EntryStore store, SecretCheck secrets, LimitsConfig limits, MemoryMetrics metrics) {
    this.store = store;
    this.secrets = secrets;
    this.limits = limits;
    this.metrics = metrics;
  }

  /** Sets the memory's content (an edit, or the restore of a kept version). */
  public EditOutcome save(
      AuthorizedRepository target, String key, String content, long expectedVersion) {
    Optional<String> badKey = Keys.violation(key);
    if (badKey.isPresent()) {
      return new EditOutcome.Refused("the path is not valid: " + badKey.get());
    }
    Optional<String> badText = UnicodeText.violation(content);
    if (badText.isPresent()) {
      return new EditOutcome.Refused("the text cannot be kept: " + badText.get());
    }
    long size = UnicodeText.utf8Length(content);
    if (size > limits.maxEntryBytes()) {
      return new EditOutcome.Refused(
          "the text is "
              + size
              + " bytes, over this server's limit of "
              + limits.maxEntryBytes()
              + " bytes for one memory");
    }
    metrics.request("console_save");
    List<SecretFinding> findings = secrets.scan(Map.of(key, content));
    return switch (store.putKeyAtVersion(target, key, content, expectedVersion, findings)) {
      case PutOutcome.Applied applied -> {
        LOG.infof(
            "Console save %s %s by %s: version %d",
            target.slug(),
            secrets.keyInLog(key),
            target.caller().user(),
            applied.state().version());
        yield new EditOutcome.Saved(applied.state().version());
      }
      case PutOutcome.Unchanged unchanged -> new EditOutcome.Unchanged();
      case PutOutcome.PreconditionFailed failed -> changed();
      case PutOutcome.Archived archived ->
          new EditOutcome.Refused("the memory store is archived: it can be read but not written");
      case PutOutcome.TooManyEntries cap ->
          new EditOutcome.Refused(
              "the repository would hold more than " + cap.maxEntries() + " memories");
      case PutOutcome.RepositoryTooLarge large ->
          new EditOutcome.Refused(
              "the repository would hold "
                  + large.bytes()
                  + " bytes, over this server's limit of "
                  + large.maxBytes());
      case PutOutcome.SecretDetected detected -> secretRefused(target, detected.findings());
    };
  }

  /** Deletes the memory (its history keeps every version). */
  public EditOutcome delete(AuthorizedRepository target, String key, long expectedVersion) {
    metrics.request("console_delete");
    return switch (store.deleteKeyAtVersion(target, key, expectedVersion)) {
      case DeleteOutcome.Deleted deleted -> {
        LOG.infof(
            "Console delete %s %s by %s: version %d",
            target.slug(),
            secrets.keyInLog(key),
            target.caller().user(),
            deleted.state().version());
        yield new EditOutcome.Saved(deleted.state().version());
      }
      case DeleteOutcome.AlreadyDeleted already -> new EditOutcome.Unchanged();
      case DeleteOutcome.KeyChanged changed -> changed();
      case DeleteOutcome.PreconditionFailed failed -> changed();
      case DeleteOutcome.Archived archived ->
          new EditOutcome.Refused("the memory store is archived: it can be read but not written");
      case DeleteOutcome.NoSuchRepository none -> new EditOutcome.Missing();
      case DeleteOutcome.NoSuchKey none -> new EditOutcome.Missing();
    };
  }

  /**
   * Removes one kept version for good (the way out of a leaked secret), as the API's history purge
   * does: when it is the current content, the memory returns to its previous version.
   */
  public EditOutcome redact(AuthorizedRepository target, String key, long version) {
    metrics.request("console_redact");
    return switch (store.purge(target, key, version)) {
      case PurgeOutcome.Purged purged -> {
        LOG.infof(
            "Console redact %s %s version %d by %s",
            target.slug(), secrets.keyInLog(key), version, target.caller().user());
        yield new EditOutcome.Saved(purged.state().version());
      }
      case PurgeOutcome.NoSuchRepository none -> new EditOutcome.Missing();
      case PurgeOutcome.NoSuchVersion none -> new EditOutcome.Missing();
    };
  }

  private static EditOutcome changed() {
    return new EditOutcome.Changed();
  }

  private static EditOutcome secretRefused(
      AuthorizedRepository target, List<SecretFinding> findings) {
    SecretFinding first = findings.getFirst();
    LOG.infof(
        "Refused console save %s by %s: rule %s, line %d (fingerprint %s)",
        target.slug(), target.caller().user(), first.ruleId(), first.line(), first.fingerprint());
    return new EditOutcome.Refused(
        "refused: "
            + findings.size()
            + " secret(s) found, the first by rule "
            + first.ruleId()
            + (first.part() == SecretFinding.Part.KEY
                ? " in the path itself"
                : " at line " + first.line())
            + "; remove it and save again");
  }
}
