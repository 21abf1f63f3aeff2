package dev.teammemory.server.admin;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.server.errors.ApiException;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * {@code GET /admin/secret-report}: for admins, the stored entries the current secret rules would
 * refuse (repository, key, field, rule, line; never the match, and a key that holds a secret shown
 * redacted), a page at a time: {@code next_page} leads on until it is null.
 */
@Path("/admin/secret-report")
@Produces(MediaType.APPLICATION_JSON)
public class SecretReportResource {

  private static final Logger LOG = Logger.getLogger(SecretReportResource.class);

  private final Admins admins;
  private final SecretReport report;

  @Inject
  SecretReportResource(Admins admins, SecretReport report) {
    this.admins = admins;
    this.report = report;
  }

  @GET
  public SecretReport.Page page(@RestQuery String page) {
    String admin = admins.require().user();
    SecretReport.Page answer = report.after(position(page));
    LOG.infof(
        "Secret report for %s: %d entries scanned, %d findings",
        admin, answer.scannedEntries(), answer.findings().size());
    return answer;
  }

  private static long position(String page) {
    if (page == null || page.isEmpty()) {
      return 0;
    }
    try {
      long position = Long.parseLong(page);
      if (position >= 0) {
        return position;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw ApiException.of(
        400,
        ErrorCodes.INVALID_PARAMETER,
        "page is not a position this report gave; pass next_page as it came",
        Map.of());
  }
}
