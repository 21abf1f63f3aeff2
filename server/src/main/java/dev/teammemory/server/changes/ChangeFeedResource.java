package dev.teammemory.server.changes;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ETags;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositoryAuthorization;
import dev.teammemory.server.errors.ApiException;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.Map;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * {@code GET /api/claude_code/team_memory/changes?repo=o/r&since=<checksum>&wait=30}: the hashes
 * view as soon as the repository's checksum differs from {@code since}, else {@code 304} after
 * {@code wait} seconds (at most 60). A never-written repository counts as the empty checksum, so a
 * client can wait for the first write.
 */
@Path("/api/claude_code/team_memory/changes")
public class ChangeFeedResource {

  static final int DEFAULT_WAIT_SECONDS = 30;
  static final int MAX_WAIT_SECONDS = 60;

  private final RepositoryAuthorization authorization;
  private final ChangeFeed feed;

  @Inject
  ChangeFeedResource(RepositoryAuthorization authorization, ChangeFeed feed) {
    this.authorization = authorization;
    this.feed = feed;
  }

  @GET
  @Blocking // the checks read PostgreSQL; the wait itself holds no thread
  @Produces(MediaType.APPLICATION_JSON)
  public Uni<Response> changes(
      @RestQuery String repo,
      @RestQuery String since,
      @RestQuery("after_version") String afterVersion,
      @RestQuery String wait) {
    AuthorizedRepository target = authorization.read(repo);
    if (afterVersion != null) {
      return changesAfter(target, since, afterVersion, wait);
    }
    String sinceChecksum = since(since);
    Duration waitFor = Duration.ofSeconds(waitSeconds(wait));
    return Uni.createFrom()
        .completionStage(feed.await(target, sinceChecksum, waitFor))
        .map(
            changed ->
                changed
                    .map(
                        view ->
                            Response.ok(view).header("ETag", ETags.quote(view.checksum())).build())
                    .orElseGet(
                        () ->
                            Response.notModified()
                                .header("ETag", ETags.quote(sinceChecksum))
                                .build()));
  }

  /** The {@code after_version} form, for per-file sync (PROTOCOL.md "Extensions"). */
  private Uni<Response> changesAfter(
      AuthorizedRepository target, String since, String afterVersion, String wait) {
    if (since != null) {
      throw ApiException.of(
          400,
          ErrorCodes.INVALID_PARAMETER,
          "send either since or after_version, not both",
          Map.of("since", since, "after_version", afterVersion));
    }
    long after = afterVersion(afterVersion);
    Duration waitFor = Duration.ofSeconds(waitSeconds(wait));
    return Uni.createFrom()
        .completionStage(feed.awaitAfter(target, after, waitFor))
        .map(
            changed ->
                changed
                    .map(
                        changes ->
                            Response.ok(changes)
                                .header("ETag", ETags.quote(changes.checksum()))
                                .build())
                    .orElseGet(() -> Response.notModified().build()));
  }

  private static long afterVersion(String afterVersion) {
    try {
      long version = Long.parseLong(afterVersion);
      if (version >= 0) {
        return version;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw ApiException.of(
        400,
        ErrorCodes.INVALID_PARAMETER,
        "after_version must be a repository version the client holds (a whole number, 0 for none)",
        Map.of("after_version", afterVersion));
  }

  private static String since(String since) {
    String checksum = since == null ? null : ETags.unquote(since);
    if (!Checksums.isChecksum(checksum)) {
      throw ApiException.of(
          400,
          ErrorCodes.INVALID_PARAMETER,
          "since must be the repository checksum the client holds (sha256:<64 hex digits>;"
              + " the empty checksum for none)",
          since == null ? Map.of() : Map.of("since", since));
    }
    return checksum;
  }

  private static int waitSeconds(String wait) {
    if (wait == null) {
      return DEFAULT_WAIT_SECONDS;
    }
    try {
      int seconds = Integer.parseInt(wait);
      if (seconds >= 0 && seconds <= MAX_WAIT_SECONDS) {
        return seconds;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw ApiException.of(
        400,
        ErrorCodes.INVALID_PARAMETER,
        "wait must be a whole number of seconds from 0 to " + MAX_WAIT_SECONDS,
        Map.of("wait", wait));
  }
}
