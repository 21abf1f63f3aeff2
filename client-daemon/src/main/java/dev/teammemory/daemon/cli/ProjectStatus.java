package dev.teammemory.daemon.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** One project as {@code tmem status} shows it (and as {@code --format json} prints it). */
@JsonInclude(JsonInclude.Include.NON_NULL)
record ProjectStatus(
    String repo,
    String teamDir,
    String server,
    String store,
    String console,
    String daemon,
    String lastPull,
    String lastPush,
    List<String> pending,
    List<Skipped> skipped,
    List<Conflict> conflicts,
    List<KeptLocally> deletedOnServerKeptLocally,
    List<Refused> refusedFromServer,
    List<Deleting> deleting,
    DeletesHeld deletesHeld,
    String blocked,
    String lastError,
    String lastErrorAt,
    String serverForgot,
    List<String> keptToday,
    List<Review> waitingForReview,
    List<Review> rejectedByReviewer) {

  ProjectStatus {
    pending = List.copyOf(pending);
    skipped = List.copyOf(skipped);
    conflicts = List.copyOf(conflicts);
    deletedOnServerKeptLocally = List.copyOf(deletedOnServerKeptLocally);
    refusedFromServer = List.copyOf(refusedFromServer);
    deleting = List.copyOf(deleting);
    keptToday = keptToday == null ? List.of() : List.copyOf(keptToday);
    waitingForReview = waitingForReview == null ? List.of() : List.copyOf(waitingForReview);
    rejectedByReviewer = rejectedByReviewer == null ? List.of() : List.copyOf(rejectedByReviewer);
  }

  /**
   * A change made while the repository required review: waiting for a reviewer, or rejected by one
   * (with when and their comment).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Review(
      String id,
      String key,
      String author,
      String operation,
      String createdAt,
      String reviewer,
      String comment,
      String decidedAt) {}

  record Skipped(String key, String reason, String detail, String words) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Conflict(
      String key,
      String detectedAt,
      Long theirVersion,
      String theirAuthor,
      String theirChecksum,
      String savedCopy,
      String words) {}

  record KeptLocally(String key, String deletedAt) {}

  record Refused(String key, String reason) {}

  /** A synced file missing here; its delete goes to the server at a later scan. */
  record Deleting(String key, String missingSince) {}

  /** Deletes wait for {@code tmem team confirm-deletes}. */
  record DeletesHeld(String reason, List<String> keys, String since, boolean released) {
    DeletesHeld {
      keys = List.copyOf(keys);
    }
  }
}
