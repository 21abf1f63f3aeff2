package dev.teammemory.server.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.RepositorySettings;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositoryAuthorization;
import dev.teammemory.server.errors.ApiException;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * {@code GET}/{@code PUT /api/claude_code/team_memory/settings?repo=o/r}: the repository's review
 * setting, {@code {"review":"off"|"required"}}. Readers read it; only admins change it.
 */
@Path("/api/claude_code/team_memory/settings")
@Produces(MediaType.APPLICATION_JSON)
public class SettingsResource {

  private static final Logger LOG = Logger.getLogger(SettingsResource.class);

  /** A settings body is a few bytes; more is refused before it is parsed. */
  private static final int MAX_BODY_BYTES = 4096;

  private static final ObjectMapper STRICT =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private final RepositoryAuthorization authorization;
  private final ReviewSettings settings;

  @Inject
  SettingsResource(RepositoryAuthorization authorization, ReviewSettings settings) {
    this.authorization = authorization;
    this.settings = settings;
  }

  @GET
  public RepositorySettings get(@RestQuery String repo) {
    return settings.of(authorization.read(repo).slug());
  }

  @PUT
  public RepositorySettings put(@RestQuery String repo, InputStream body) {
    AuthorizedRepository target = authorization.administer(repo);
    RepositorySettings wanted = parse(body);
    switch (settings.change(target, wanted)) {
      case ReviewSettings.Change.Unchanged unchanged -> {}
      case ReviewSettings.Change.Switched switched ->
          LOG.infof(
              "Review of %s set to %s by %s (%d memories counted as approved, %d waiting changes"
                  + " published)",
              target.slug(),
              wanted.review(),
              target.caller().user(),
              switched.approved(),
              switched.published());
    }
    return wanted;
  }

  /** {@code {"review":"off"|"required"}} and nothing else; anything else is a {@code 400}. */
  private static RepositorySettings parse(InputStream body) {
    JsonNode root;
    try (body) {
      byte[] bytes = body.readNBytes(MAX_BODY_BYTES + 1);
      if (bytes.length > MAX_BODY_BYTES) {
        throw invalidBody("the body must be {\"review\": \"off\" | \"required\"}, a few bytes");
      }
      root = STRICT.readTree(bytes);
    } catch (JsonProcessingException e) {
      throw ApiException.of(400, ErrorCodes.INVALID_JSON, "the body is not valid JSON");
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the request body", e);
    }
    if (root == null || !root.isObject()) {
      throw invalidBody("the body must be a JSON object {\"review\": \"off\" | \"required\"}");
    }
    Iterator<String> fields = root.fieldNames();
    while (fields.hasNext()) {
      if (!fields.next().equals("review")) {
        throw invalidBody("the body must hold only \"review\"; it also holds an unknown field");
      }
    }
    JsonNode review = root.get("review");
    if (review == null
        || !review.isTextual()
        || !(review.asText().equals(RepositorySettings.REVIEW_OFF)
            || review.asText().equals(RepositorySettings.REVIEW_REQUIRED))) {
      throw invalidBody("\"review\" must be \"off\" or \"required\"");
    }
    return new RepositorySettings(review.asText());
  }

  private static ApiException invalidBody(String message) {
    return ApiException.of(400, ErrorCodes.INVALID_BODY, message);
  }
}
