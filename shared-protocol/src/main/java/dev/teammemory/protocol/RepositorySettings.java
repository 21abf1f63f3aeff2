package dev.teammemory.protocol;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of {@code GET}/{@code PUT …/team_memory/settings?repo=o/r}: whether a repository's
 * changes reach teammates only once a reviewer approved them ({@code "required"}) or at once
 * ({@code "off"}, the default).
 */
public record RepositorySettings(@JsonProperty(value = "review", required = true) String review) {

  public static final String REVIEW_OFF = "off";
  public static final String REVIEW_REQUIRED = "required";

  public RepositorySettings {
    requireNonNull(review, "review is null");
    if (!review.equals(REVIEW_OFF) && !review.equals(REVIEW_REQUIRED)) {
      throw new IllegalArgumentException("review is neither off nor required: " + review);
    }
  }

  /** Whether changes wait for a reviewer. */
  public boolean reviewRequired() {
    return review.equals(REVIEW_REQUIRED);
  }
}
