package dev.teammemory.server.console;

import dev.teammemory.protocol.AuditPage;
import dev.teammemory.protocol.RepositorySettings;
import dev.teammemory.protocol.ReviewPage;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.Permission;
import dev.teammemory.server.auth.RepositoryAuthorization;
import dev.teammemory.server.auth.RepositorySlug;
import dev.teammemory.server.errors.ApiException;
import dev.teammemory.server.memory.MemoryBrowser;
import dev.teammemory.server.review.ReviewAudit;
import dev.teammemory.server.review.ReviewDecisions;
import dev.teammemory.server.review.ReviewSettings;
import dev.teammemory.server.review.Reviews;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The console's review pages of one repository: the queue of changes (waiting, approved or
 * rejected), one change with its diff against the approved version and the reviewers' approve and
 * reject forms, the review setting (a form for admins), and the audit. A thin adapter over the
 * {@code review} services, with the same checks as the review endpoints: the list shows a
 * non-reviewer only their own changes, deciding needs the review level, the setting the admin
 * level, the audit the review level.
 */
@Path("/console")
@Produces("text/html;charset=UTF-8")
public class ReviewPages {

  private static final Logger LOG = Logger.getLogger(ReviewPages.class);

  private static final Set<String> STATUSES =
      Set.of(ReviewPage.PENDING, ReviewPage.APPROVED, ReviewPage.REJECTED);

  @CheckedTemplate(basePath = "console", requireTypeSafeExpressions = false)
  static class Templates {
    static native TemplateInstance reviews(Views.Chrome chrome, Views.ReviewQueueView page);

    static native TemplateInstance reviewChange(Views.Chrome chrome, Views.ReviewChangeView page);

    static native TemplateInstance audit(Views.Chrome chrome, Views.AuditView page);
  }

  private final RepositoryAuthorization authorization;
  private final Reviews reviews;
  private final ReviewDecisions decisions;
  private final ReviewSettings settings;
  private final ReviewAudit audit;
  private final MemoryBrowser browser;
  private final CurrentSession session;

  @Inject
  ReviewPages(
      RepositoryAuthorization authorization,
      Reviews reviews,
      ReviewDecisions decisions,
      ReviewSettings settings,
      ReviewAudit audit,
      MemoryBrowser browser,
      CurrentSession session) {
    this.authorization = authorization;
    this.reviews = reviews;
    this.decisions = decisions;
    this.settings = settings;
    this.audit = audit;
    this.browser = browser;
    this.session = session;
  }

  @GET
  @Path("/repos/{owner}/{name}/review")
  public String queue(
      @RestPath String owner,
      @RestPath String name,
      @RestQuery String status,
      @RestQuery String page) {
    AuthorizedRepository target = authorization.read(owner + "/" + name);
    return queuePage(target, status, page).render();
  }

  @GET
  @Path("/repos/{owner}/{name}/review/{id}")
  public String change(@RestPath String owner, @RestPath String name, @RestPath String id) {
    AuthorizedRepository target = authorization.read(owner + "/" + name);
    return changePage(target, id, null).render();
  }

  @POST
  @Path("/repos/{owner}/{name}/review/{id}")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  public Response decide(
      @RestPath String owner,
      @RestPath String name,
      @RestPath String id,
      @RestForm String csrf,
      @RestForm String decision,
      @RestForm String comment) {
    Pages.requireCsrf(session, csrf);
    AuthorizedRepository reviewer = authorization.review(owner + "/" + name);
    if (!"approve".equals(decision) && !"reject".equals(decision)) {
      throw ApiException.of(
          400, "invalid_parameter", "the form's decision is neither approve nor reject");
    }
    String text = comment == null ? "" : comment.replace("\r\n", "\n").strip();
    Refusal refusal =
        switch (decisions.decide(reviewer, id, decision.equals("approve"), text)) {
          case ReviewDecisions.Outcome.Decided decided -> {
            LOG.infof(
                "Console review %s of %s %s by %s",
                id.length() > 40 ? id.substring(0, 40) + "…" : id,
                reviewer.slug(),
                decided.review().status(),
                reviewer.caller().user());
            yield null;
          }
          case ReviewDecisions.Outcome.NotFound none ->
              throw ApiException.of(
                  404, "not_found", "no change of " + reviewer.slug() + " has this id");
          case ReviewDecisions.Outcome.AlreadyDecided already ->
              new Refusal(409, "this change was already " + already.status());
          case ReviewDecisions.Outcome.CommentRefused refused -> new Refusal(422, refused.reason());
          case ReviewDecisions.Outcome.SecretInComment secret -> new Refusal(422, secret.reason());
        };
    if (refusal == null) {
      return Response.seeOther(URI.create(changeHref(reviewer.slug(), id))).build();
    }
    // The change as it is now, with the refusal in words; the comment is not shown again (it may
    // hold the secret that refused it).
    return html(
        refusal.status(), changePage(reviewer, id, "Not decided: " + refusal.reason() + "."));
  }

  /** Why a decision was not made, and the status the page answers with. */
  private record Refusal(int status, String reason) {}

  @POST
  @Path("/repos/{owner}/{name}/settings")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  public Response setting(
      @RestPath String owner,
      @RestPath String name,
      @RestForm String csrf,
      @RestForm String review) {
    Pages.requireCsrf(session, csrf);
    AuthorizedRepository admin = authorization.administer(owner + "/" + name);
    if (!RepositorySettings.REVIEW_OFF.equals(review)
        && !RepositorySettings.REVIEW_REQUIRED.equals(review)) {
      throw ApiException.of(
          400, "invalid_parameter", "the form's review is neither off nor required");
    }
    // Unchanged or switched, the queue page shows the setting as it now is (and, once switched off,
    // the changes it published among the approved).
    if (settings.change(admin, new RepositorySettings(review))
        instanceof ReviewSettings.Change.Switched switched) {
      LOG.infof(
          "Console: review of %s set to %s by %s (%d memories counted as approved, %d waiting"
              + " changes published)",
          admin.slug(), review, admin.caller().user(), switched.approved(), switched.published());
    }
    return Response.seeOther(URI.create(queueHref(admin.slug()))).build();
  }

  @GET
  @Path("/repos/{owner}/{name}/audit")
  public String audit(@RestPath String owner, @RestPath String name, @RestQuery String page) {
    AuthorizedRepository reviewer = authorization.review(owner + "/" + name);
    RepositorySlug slug = reviewer.slug();
    AuditPage entries = audit.page(slug, cursor(page));
    List<Views.AuditRow> rows =
        entries.data().stream()
            .map(
                entry ->
                    new Views.AuditRow(
                        time(entry.createdAt()),
                        entry.action(),
                        entry.actor(),
                        entry.key(),
                        entry.reviewId() == null ? null : changeHref(slug, entry.reviewId()),
                        entry.detail() == null ? "" : entry.detail()))
            .toList();
    Views.Link next =
        entries.nextPage() == null
            ? null
            : new Views.Link(
                Pages.repositoryHref(slug) + "/audit?page=" + entries.nextPage(), "Older entries");
    return Templates.audit(
            chrome("Review audit of " + slug),
            new Views.AuditView(
                slug.toString(), Pages.repositoryHref(slug), queueHref(slug), rows, next))
        .render();
  }

  // ----------------------------------------------------------------------------- helpers

  private TemplateInstance queuePage(AuthorizedRepository target, String status, String page) {
    RepositorySlug slug = target.slug();
    String wanted = status == null || status.isEmpty() ? ReviewPage.PENDING : status;
    if (!STATUSES.contains(wanted)) {
      throw ApiException.of(
          400, "invalid_parameter", "status must be pending, approved or rejected");
    }
    Permission permission = target.permission();
    ReviewPage changes = reviews.page(target, wanted, cursor(page));
    List<Views.ReviewRow> rows = changes.data().stream().map(row -> reviewRow(slug, row)).toList();
    String base = queueHref(slug);
    Views.Link next =
        changes.nextPage() == null
            ? null
            : new Views.Link(
                base + "?status=" + wanted + "&page=" + changes.nextPage(), "More changes");
    List<Views.Tab> tabs = new ArrayList<>();
    for (String each : List.of(ReviewPage.PENDING, ReviewPage.APPROVED, ReviewPage.REJECTED)) {
      tabs.add(
          new Views.Tab(
              base + (each.equals(ReviewPage.PENDING) ? "" : "?status=" + each),
              switch (each) {
                case ReviewPage.PENDING -> "Waiting";
                case ReviewPage.APPROVED -> "Approved";
                default -> "Rejected";
              },
              each.equals(wanted)));
    }
    return Templates.reviews(
        chrome("Review of " + slug),
        new Views.ReviewQueueView(
            slug.toString(),
            Pages.repositoryHref(slug),
            Pages.repositoryHref(slug) + "/settings",
            permission.allowsReview() ? Pages.repositoryHref(slug) + "/audit" : null,
            settings.of(slug).reviewRequired(),
            permission.allowsAdministration(),
            permission.allowsReview(),
            wanted,
            tabs,
            rows,
            session.require().csrfToken(),
            next));
  }

  /**
   * One change with its diff: the key's approved version (or nothing, for a memory never approved)
   * against the version the change stamped, two kept versions read in one statement.
   */
  private TemplateInstance changePage(AuthorizedRepository target, String id, String message) {
    RepositorySlug slug = target.slug();
    Reviews.Change change =
        reviews
            .change(target, id)
            .orElseThrow(
                () ->
                    ApiException.of(
                        404,
                        "not_found",
                        "no change of " + slug + " that you may see has this id"));
    ReviewPage.Review review = change.review();
    List<Long> versions = new ArrayList<>();
    change.comparedWith().ifPresent(versions::add);
    if (!versions.contains(review.version())) {
      versions.add(review.version());
    }
    Map<Long, MemoryBrowser.VersionText> texts =
        browser.versionTexts(target, review.key(), versions).stream()
            .collect(Collectors.toMap(MemoryBrowser.VersionText::version, Function.identity()));
    MemoryBrowser.VersionText changed = texts.get(review.version());
    Optional<MemoryBrowser.VersionText> approved = change.comparedWith().map(texts::get);
    String before;
    if (change.comparedWith().isEmpty()) {
      before = "Nothing approved yet: a teammate sees no memory at this path.";
    } else if (approved.isEmpty()) {
      before =
          "The approved version "
              + change.comparedWith().get()
              + " is no longer kept (redacted or pruned); the diff starts from nothing.";
    } else if (approved.get().deleted()) {
      before = "The approved version " + change.comparedWith().get() + " is a delete.";
    } else {
      before = "Compared with the approved version " + change.comparedWith().get() + ".";
    }
    String oldText =
        approved.filter(text -> !text.deleted()).map(MemoryBrowser.VersionText::content).orElse("");
    List<LineDiff.Row> diff =
        changed == null
            ? List.of()
            : LineDiff.of(oldText, changed.deleted() ? "" : changed.content());
    Permission permission = target.permission();
    return Templates.reviewChange(
        chrome("Change to " + review.key() + " · " + slug),
        new Views.ReviewChangeView(
            slug.toString(),
            Pages.repositoryHref(slug),
            queueHref(slug),
            reviewRow(slug, review),
            change.renamedFrom(),
            before,
            changed == null,
            changed != null && changed.deleted(),
            diff,
            permission.allowsReview() && review.status().equals(ReviewPage.PENDING),
            ReviewDecisions.MAX_COMMENT_CHARACTERS,
            session.require().csrfToken(),
            message));
  }

  private static Views.ReviewRow reviewRow(RepositorySlug slug, ReviewPage.Review review) {
    return new Views.ReviewRow(
        review.id(),
        changeHref(slug, review.id()),
        review.key(),
        Pages.memoryHref(slug, review.key()),
        review.author(),
        switch (review.operation()) {
          case "delete" -> "delete";
          case "rename" -> "rename";
          default -> "edit";
        },
        review.version(),
        time(review.createdAt()),
        review.status(),
        review.reviewer(),
        review.comment() == null ? "" : review.comment(),
        review.decidedAt() == null ? null : time(review.decidedAt()));
  }

  private Views.Chrome chrome(String title) {
    ConsoleSessions.Session current = session.require();
    return new Views.Chrome(title, current.user(), current.csrfToken());
  }

  private static Response html(int status, TemplateInstance page) {
    return Response.status(status)
        .entity(page.render())
        .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
        .build();
  }

  /** A page cursor as an earlier page's link gave it: a row's number. */
  private static Optional<Long> cursor(String page) {
    if (page == null || page.isEmpty()) {
      return Optional.empty();
    }
    if (page.length() <= 18 && page.chars().allMatch(Character::isDigit)) {
      return Optional.of(Long.parseLong(page));
    }
    throw ApiException.of(400, "invalid_parameter", "page must be a link's page number");
  }

  private static Views.Time time(String iso) {
    return Views.Time.of(Instant.parse(iso));
  }

  static String queueHref(RepositorySlug slug) {
    return Pages.repositoryHref(slug) + "/review";
  }

  static String changeHref(RepositorySlug slug, String id) {
    return queueHref(slug) + "/" + Pages.urlEncode(id);
  }

  /** Every refusal of a review page as a page, in words, with its status. */
  @ServerExceptionMapper
  Response refused(ApiException exception) {
    return Pages.errorResponse(exception.status(), exception.getMessage());
  }
}
