package dev.teammemory.server.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ReviewPage;
import dev.teammemory.protocol.UnicodeText;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositoryAuthorization;
import dev.teammemory.server.errors.ApiException;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * {@code GET
 * /api/claude_code/team_memory/reviews?repo=o/r&status=pending|approved|rejected&page=…}: the
 * changes made while the repository required review (pending when no status is given); a reviewer
 * sees everyone's, any other reader their own. {@code POST …/reviews/{id}?repo=o/r} with {@code
 * {"decision": "approve"|"reject", "comment": …}}: a reviewer's decision.
 */
@Path("/api/claude_code/team_memory/reviews")
@Produces(MediaType.APPLICATION_JSON)
public class ReviewsResource {

  private static final Logger LOG = Logger.getLogger(ReviewsResource.class);

  private static final Set<String> STATUSES =
      Set.of(ReviewPage.PENDING, ReviewPage.APPROVED, ReviewPage.REJECTED);

  private static final int MAX_COMMENT_CHARACTERS = ReviewDecisions.MAX_COMMENT_CHARACTERS;

  private static final ObjectMapper STRICT =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private final RepositoryAuthorization authorization;
  private final Reviews reviews;
  private final ReviewDecisions decisions;

  @Inject
  ReviewsResource(
      RepositoryAuthorization authorization, Reviews reviews, ReviewDecisions decisions) {
    this.authorization = authorization;
    this.reviews = reviews;
    this.decisions = decisions;
  }

  /** A decision to make, as parsed. */
  private record Decision(boolean approve, String comment) {}

  @POST
  @Path("{id}")
  public ReviewPage.Review decide(@RestPath String id, @RestQuery String repo, InputStream body) {
    AuthorizedRepository reviewer = authorization.review(repo);
    Decision decision = parse(body);
    return switch (decisions.decide(reviewer, id, decision.approve(), decision.comment())) {
      case ReviewDecisions.Outcome.Decided decided -> {
        LOG.infof(
            "Review %s of %s %s by %s",
            shown(id),
            reviewer.slug(),
            decision.approve() ? "approved" : "rejected",
            reviewer.caller().user());
        yield decided.review();
      }
      case ReviewDecisions.Outcome.NotFound none ->
          throw ApiException.of(
              404,
              ErrorCodes.NOT_FOUND,
              "no change waits for review in " + reviewer.slug() + " under this id",
              Map.of("id", shown(id)));
      case ReviewDecisions.Outcome.CommentRefused refused -> throw invalidBody(refused.reason());
      case ReviewDecisions.Outcome.SecretInComment secret ->
          throw ApiException.of(
              422,
              ErrorCodes.SECRET_DETECTED,
              secret.reason(),
              Map.of("rule", secret.ruleId(), "line", secret.line()));
      case ReviewDecisions.Outcome.AlreadyDecided already ->
          throw ApiException.of(
              409,
              ErrorCodes.ALREADY_DECIDED,
              "this change was already " + already.status(),
              Map.of("id", shown(id)));
    };
  }

  /** {@code {"decision": "approve"|"reject", "comment": "…"}}; the comment may be left out. */
  private static Decision parse(InputStream body) {
    JsonNode root;
    try (body) {
      byte[] bytes = body.readNBytes(4 * MAX_COMMENT_CHARACTERS + 1024);
      root = STRICT.readTree(bytes);
    } catch (JsonProcessingException e) {
      throw ApiException.of(400, ErrorCodes.INVALID_JSON, "the body is not valid JSON");
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the request body", e);
    }
    if (root == null || !root.isObject()) {
      throw invalidBody(
          "the body must be a JSON object {\"decision\": \"approve\" | \"reject\", \"comment\":"
              + " \"…\"}");
    }
    Iterator<String> fields = root.fieldNames();
    while (fields.hasNext()) {
      String field = fields.next();
      if (!field.equals("decision") && !field.equals("comment")) {
        throw invalidBody("the body may hold only \"decision\" and \"comment\"");
      }
    }
    JsonNode decision = root.get("decision");
    if (decision == null
        || !decision.isTextual()
        || !(decision.asText().equals("approve") || decision.asText().equals("reject"))) {
      throw invalidBody("\"decision\" must be \"approve\" or \"reject\"");
    }
    JsonNode comment = root.get("comment");
    if (comment != null && !comment.isNull() && !comment.isTextual()) {
      throw invalidBody("\"comment\" must be a string");
    }
    String text = comment == null || comment.isNull() ? "" : comment.asText();
    if (text.length() > MAX_COMMENT_CHARACTERS) {
      throw invalidBody("\"comment\" is longer than " + MAX_COMMENT_CHARACTERS + " characters");
    }
    if (UnicodeText.violation(text).isPresent()) {
      throw invalidBody("\"comment\" cannot be kept: " + UnicodeText.violation(text).get());
    }
    return new Decision(decision.asText().equals("approve"), text);
  }

  private static ApiException invalidBody(String message) {
    return ApiException.of(400, ErrorCodes.INVALID_BODY, message);
  }

  @GET
  public ReviewPage list(@RestQuery String repo, @RestQuery String status, @RestQuery String page) {
    AuthorizedRepository target = authorization.read(repo);
    String wanted = status == null ? ReviewPage.PENDING : status;
    if (!STATUSES.contains(wanted)) {
      throw ApiException.of(
          400,
          ErrorCodes.INVALID_PARAMETER,
          "status must be pending, approved or rejected",
          Map.of("status", shown(wanted)));
    }
    return reviews.page(target, wanted, cursor(page));
  }

  /** A page cursor: a row's sequence number, as an earlier answer's {@code next_page} gave it. */
  static Optional<Long> cursor(String page) {
    if (page == null || page.isEmpty()) {
      return Optional.empty();
    }
    if (page.length() <= 18 && page.chars().allMatch(Character::isDigit)) {
      return Optional.of(Long.parseLong(page));
    }
    throw ApiException.of(
        400,
        ErrorCodes.INVALID_PARAMETER,
        "page must be the next_page of an earlier answer",
        Map.of("page", shown(page)));
  }

  /** At most 40 characters of what a caller sent, for an error's details. */
  static String shown(String value) {
    return value.length() > 40 ? value.substring(0, 40) + "…" : value;
  }
}
