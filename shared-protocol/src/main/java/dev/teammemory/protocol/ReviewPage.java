package dev.teammemory.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The body of {@code GET …/team_memory/reviews?repo=o/r&status=…}: changes made while the
 * repository required review, oldest first, a page at a time ({@code next_page}: the cursor of the
 * next page; null on the last). A reviewer sees everyone's; anyone else their own.
 */
public record ReviewPage(
    @JsonProperty("data") List<Review> data, @JsonProperty("next_page") String nextPage) {

  public static final String PENDING = "pending";
  public static final String APPROVED = "approved";
  public static final String REJECTED = "rejected";

  public ReviewPage {
    data = data == null ? List.of() : List.copyOf(data);
  }

  /**
   * One change of one key: {@code operation} {@code content} or {@code delete}, the repository
   * {@code version} it stamped, its {@code status}, and once decided the reviewer, their comment
   * and when.
   */
  public record Review(
      @JsonProperty("id") String id,
      @JsonProperty("key") String key,
      @JsonProperty("author") String author,
      @JsonProperty("operation") String operation,
      @JsonProperty("version") long version,
      @JsonProperty("created_at") String createdAt,
      @JsonProperty("status") String status,
      @JsonProperty("reviewer") String reviewer,
      @JsonProperty("comment") String comment,
      @JsonProperty("decided_at") String decidedAt) {}
}
