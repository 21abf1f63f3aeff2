package dev.teammemory.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The body of {@code GET …/team_memory/audit?repo=o/r}: what reviewers and admins did to a
 * repository, newest first, a page at a time ({@code next_page} is the cursor of the next, older
 * page; null on the last).
 */
public record AuditPage(
    @JsonProperty("data") List<Entry> data, @JsonProperty("next_page") String nextPage) {

  public AuditPage {
    data = data == null ? List.of() : List.copyOf(data);
  }

  /**
   * One action: {@code approved}, {@code rejected}, {@code restored}, {@code redacted}, {@code
   * review_on}, {@code review_off} or {@code published}, by {@code actor} at {@code created_at}.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Entry(
      @JsonProperty("action") String action,
      @JsonProperty("actor") String actor,
      @JsonProperty("review_id") String reviewId,
      @JsonProperty("key") String key,
      @JsonProperty("detail") String detail,
      @JsonProperty("created_at") String createdAt) {}
}
