package dev.teammemory.server.review;

import dev.teammemory.protocol.AuditPage;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositoryAuthorization;
import dev.teammemory.server.errors.ApiException;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import java.util.Optional;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * {@code GET /api/claude_code/team_memory/audit?repo=o/r&page=…}: what reviewers and admins did to
 * the repository, newest first, a page at a time; reviewers only.
 */
@Path("/api/claude_code/team_memory/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

  private final RepositoryAuthorization authorization;
  private final ReviewAudit audit;

  @Inject
  AuditResource(RepositoryAuthorization authorization, ReviewAudit audit) {
    this.authorization = authorization;
    this.audit = audit;
  }

  @GET
  public AuditPage audit(@RestQuery String repo, @RestQuery String page) {
    AuthorizedRepository target = authorization.review(repo);
    return audit.page(target.slug(), cursor(page));
  }

  private static Optional<Long> cursor(String page) {
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
        Map.of("page", page.length() > 40 ? page.substring(0, 40) + "…" : page));
  }
}
