package dev.teammemory.server.console;

import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositoryAuthorization;
import dev.teammemory.server.auth.RepositorySlug;
import dev.teammemory.server.errors.ApiException;
import dev.teammemory.server.memory.EditOutcome;
import dev.teammemory.server.memory.MemoryBrowser;
import dev.teammemory.server.memory.MemoryEdits;
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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The console's pages of team memory: the repositories, one repository's memories and search, a
 * memory, its history and diffs, the activity, and the writers' forms. A thin adapter: the
 * repository checks are {@link RepositoryAuthorization}'s (404 for what the caller cannot see, 403
 * for a reader's write), reads are {@link MemoryBrowser}'s and writes {@link MemoryEdits}', the
 * same services the APIs use.
 */
@Path("/console")
@Produces("text/html;charset=UTF-8")
public class Pages {

  static final int PAGE_SIZE = 50;
  static final int MEMORY_PAGE_SIZE = 200;
  static final int MAX_QUERY_CHARACTERS = 200;
  private static final String MEMORY_INDEX = "MEMORY.md";

  @CheckedTemplate(basePath = "console", requireTypeSafeExpressions = false)
  static class Templates {
    static native TemplateInstance repositories(Views.Chrome chrome, Views.RepositoriesView page);

    static native TemplateInstance repository(Views.Chrome chrome, Views.RepositoryView page);

    static native TemplateInstance memory(Views.Chrome chrome, Views.MemoryView page);

    static native TemplateInstance history(Views.Chrome chrome, Views.HistoryView page);

    static native TemplateInstance activity(Views.Chrome chrome, Views.ActivityView page);

    static native TemplateInstance signIn(Views.Chrome chrome, Views.SignInView page);

    static native TemplateInstance device(Views.Chrome chrome, Views.DeviceView page);

    static native TemplateInstance error(Views.Chrome chrome, Views.ErrorView page);
  }

  private final RepositoryAuthorization authorization;
  private final MemoryBrowser browser;
  private final MemoryEdits edits;
  private final CurrentSession session;

  @Inject
  Pages(
      RepositoryAuthorization authorization,
      MemoryBrowser browser,
      MemoryEdits edits,
      CurrentSession session) {
    this.authorization = authorization;
    this.browser = browser;
    this.edits = edits;
    this.session = session;
  }

  @GET
  @Path("/")
  public String repositories(@RestQuery Integer offset) {
    int from = offset == null || offset < 0 ? 0 : offset;
    MemoryBrowser.Page<MemoryBrowser.RepositorySummary> page =
        browser.repositories(authorization.visible(), from, PAGE_SIZE);
    List<Views.RepositoryRow> rows =
        page.rows().stream()
            .map(
                repository ->
                    new Views.RepositoryRow(
                        repository.slug(),
                        "/console/repos/" + repository.slug(),
                        repository.memories(),
                        Views.kilobytes(repository.bytes()),
                        Views.Time.of(repository.lastChange())))
            .toList();
    Views.Link next =
        page.more()
            ? new Views.Link("/console/?offset=" + (from + PAGE_SIZE), "More repositories")
            : null;
    return Templates.repositories(chrome("Repositories"), new Views.RepositoriesView(rows, next))
        .render();
  }

  @GET
  @Path("/repos/{owner}/{name}")
  public String repository(
      @RestPath String owner,
      @RestPath String name,
      @RestQuery String q,
      @RestQuery String after,
      @RestQuery Integer offset) {
    AuthorizedRepository target = authorization.read(owner + "/" + name);
    RepositorySlug slug = target.slug();
    MemoryBrowser.RepositorySummary summary =
        browser.repository(slug).orElseThrow(() -> RepositoryAuthorization.notFound(slug));
    String base = repositoryHref(slug);
    String query = q == null ? "" : q.strip();
    if (query.length() > MAX_QUERY_CHARACTERS) {
      throw ApiException.of(
          400,
          "invalid_parameter",
          "a search is at most " + MAX_QUERY_CHARACTERS + " characters long");
    }
    List<Views.Folder> folders = List.of();
    List<Views.MemoryRow> results = List.of();
    Views.Link next = null;
    if (!query.isEmpty()) {
      int from = offset == null || offset < 0 ? 0 : offset;
      MemoryBrowser.Page<MemoryBrowser.MemorySummary> found =
          browser.search(target, query, from, PAGE_SIZE);
      results = found.rows().stream().map(row -> memoryRow(slug, row)).toList();
      if (found.more()) {
        next =
            new Views.Link(
                base + "?q=" + urlEncode(query) + "&offset=" + (from + PAGE_SIZE), "More results");
      }
    } else {
      MemoryBrowser.Page<MemoryBrowser.MemorySummary> listed =
          browser.memories(target, after == null ? "" : after, MEMORY_PAGE_SIZE);
      folders = folders(slug, listed.rows());
      if (listed.more()) {
        next =
            new Views.Link(
                base + "?after=" + urlEncode(listed.rows().getLast().path()), "More memories");
      }
    }
    String memoryIndex =
        browser
            .memory(target, MEMORY_INDEX)
            .filter(memory -> !memory.deleted())
            .map(memory -> Markdown.toSafeHtml(Frontmatter.of(memory.content()).body()))
            .orElse(null);
    return Templates.repository(
            chrome(slug.toString()),
            new Views.RepositoryView(
                slug.toString(),
                base,
                base + "/activity",
                base + "/review",
                summary.memories(),
                Views.kilobytes(summary.bytes()),
                Views.Time.of(summary.lastChange()),
                query,
                folders,
                results,
                !query.isEmpty(),
                memoryIndex,
                next))
        .render();
  }

  /**
   * A memory, or (for {@code …/history} of a path that is not itself a memory) its history: a
   * memory's path may hold any number of slashes.
   */
  @GET
  @Path("/repos/{owner}/{name}/memories/{path: .+}")
  public String memory(
      @RestPath String owner,
      @RestPath String name,
      @RestPath String path,
      @RestQuery Long from,
      @RestQuery Long to,
      @RestQuery Integer offset) {
    AuthorizedRepository target = authorization.read(owner + "/" + name);
    RepositorySlug slug = target.slug();
    Optional<MemoryBrowser.MemoryText> memory = browser.memory(target, path);
    if (memory.isEmpty() && path.endsWith("/history")) {
      String key = path.substring(0, path.length() - "/history".length());
      return history(target, key, from, to, offset).render();
    }
    MemoryBrowser.MemoryText text =
        memory.orElseThrow(() -> notFound("the repository has no memory at this path"));
    return memoryPage(slug, text, null).render();
  }

  @GET
  @Path("/repos/{owner}/{name}/activity")
  public String activity(@RestPath String owner, @RestPath String name, @RestQuery Integer offset) {
    AuthorizedRepository target = authorization.read(owner + "/" + name);
    RepositorySlug slug = target.slug();
    int from = offset == null || offset < 0 ? 0 : offset;
    MemoryBrowser.Page<MemoryBrowser.Change> page = browser.activity(target, from, PAGE_SIZE);
    if (page.rows().isEmpty() && browser.repository(slug).isEmpty()) {
      throw RepositoryAuthorization.notFound(slug);
    }
    List<Views.ChangeRow> changes =
        page.rows().stream()
            .map(
                change ->
                    new Views.ChangeRow(
                        change.path(),
                        memoryHref(slug, change.path()),
                        change.version(),
                        change.author(),
                        Views.Time.of(change.createdAt()),
                        change.operation(),
                        Views.kilobytes(change.bytes())))
            .toList();
    String base = repositoryHref(slug) + "/activity";
    Views.Link next =
        page.more()
            ? new Views.Link(base + "?offset=" + (from + PAGE_SIZE), "Older changes")
            : null;
    return Templates.activity(
            chrome("Activity of " + slug),
            new Views.ActivityView(slug.toString(), repositoryHref(slug), changes, next))
        .render();
  }

  // ------------------------------------------------------------------------------ writes

  @POST
  @Path("/repos/{owner}/{name}/save")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  public Response save(
      @RestPath String owner,
      @RestPath String name,
      @RestForm String csrf,
      @RestForm String path,
      @RestForm String content,
      @RestForm String expected) {
    requireCsrf(csrf);
    AuthorizedRepository target = authorization.write(owner + "/" + name);
    String key = requireField("path", path);
    String text = content == null ? "" : content.replace("\r\n", "\n");
    return afterWrite(target, key, edits.save(target, key, text, version("expected", expected)));
  }

  @POST
  @Path("/repos/{owner}/{name}/restore")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  public Response restore(
      @RestPath String owner,
      @RestPath String name,
      @RestForm String csrf,
      @RestForm String path,
      @RestForm String version,
      @RestForm String expected) {
    requireCsrf(csrf);
    AuthorizedRepository target = authorization.write(owner + "/" + name);
    String key = requireField("path", path);
    long restored = version("version", version);
    List<MemoryBrowser.VersionText> kept = browser.versionTexts(target, key, List.of(restored));
    if (kept.isEmpty() || kept.getFirst().deleted()) {
      throw notFound("the memory has no kept version " + restored + " to restore");
    }
    return afterWrite(
        target,
        key,
        edits.save(target, key, kept.getFirst().content(), version("expected", expected)));
  }

  @POST
  @Path("/repos/{owner}/{name}/delete")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  public Response delete(
      @RestPath String owner,
      @RestPath String name,
      @RestForm String csrf,
      @RestForm String path,
      @RestForm String expected) {
    requireCsrf(csrf);
    AuthorizedRepository target = authorization.write(owner + "/" + name);
    String key = requireField("path", path);
    return afterWrite(target, key, edits.delete(target, key, version("expected", expected)));
  }

  @POST
  @Path("/repos/{owner}/{name}/redact")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  public Response redact(
      @RestPath String owner,
      @RestPath String name,
      @RestForm String csrf,
      @RestForm String path,
      @RestForm String version) {
    requireCsrf(csrf);
    AuthorizedRepository target = authorization.write(owner + "/" + name);
    String key = requireField("path", path);
    EditOutcome outcome = edits.redact(target, key, version("version", version));
    if (outcome instanceof EditOutcome.Missing) {
      throw notFound("the memory has no such kept version");
    }
    return Response.seeOther(URI.create(memoryHref(target.slug(), key) + "/history")).build();
  }

  /** After a write: the memory's page, or the page again with what went wrong, in words. */
  private Response afterWrite(AuthorizedRepository target, String key, EditOutcome outcome) {
    String message =
        switch (outcome) {
          case EditOutcome.Saved saved -> null;
          case EditOutcome.Unchanged unchanged -> null;
          case EditOutcome.Changed changed ->
              "Not saved: someone changed this memory after the page showed it. This is the"
                  + " memory as it is now; nothing was overwritten.";
          case EditOutcome.Refused refused -> "Not saved: " + refused.reason() + ".";
          case EditOutcome.Missing missing -> "Not saved: the memory is no longer there.";
        };
    if (message == null) {
      return Response.seeOther(URI.create(memoryHref(target.slug(), key))).build();
    }
    int status = outcome instanceof EditOutcome.Changed ? 409 : 422;
    Optional<MemoryBrowser.MemoryText> now = browser.memory(target, key);
    TemplateInstance page =
        now.isPresent()
            ? memoryPage(target.slug(), now.get(), message)
            : Templates.error(chrome("Not saved"), new Views.ErrorView(status, message));
    return Response.status(status)
        .entity(page.render())
        .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
        .build();
  }

  // ----------------------------------------------------------------------------- helpers

  private TemplateInstance memoryPage(
      RepositorySlug slug, MemoryBrowser.MemoryText text, String message) {
    Frontmatter frontmatter = Frontmatter.of(text.content());
    List<Views.Field> fields =
        frontmatter.fields().stream()
            .map(field -> new Views.Field(field.name(), field.value()))
            .toList();
    String href = memoryHref(slug, text.path());
    return Templates.memory(
        chrome(text.path() + " · " + slug),
        new Views.MemoryView(
            slug.toString(),
            repositoryHref(slug),
            text.path(),
            href,
            href + "/history",
            text.deleted() ? null : Markdown.toSafeHtml(frontmatter.body()),
            text.content(),
            fields,
            text.author(),
            Views.Time.of(text.updatedAt()),
            Views.kilobytes(text.bytes()),
            text.version(),
            text.deleted(),
            authorization.permission(slug).allowsWrite(),
            session.require().csrfToken(),
            message));
  }

  private TemplateInstance history(
      AuthorizedRepository target, String key, Long from, Long to, Integer offset) {
    RepositorySlug slug = target.slug();
    int start = offset == null || offset < 0 ? 0 : offset;
    MemoryBrowser.Page<MemoryBrowser.VersionSummary> page =
        browser.versions(target, key, start, PAGE_SIZE);
    Optional<MemoryBrowser.MemoryText> current = browser.memory(target, key);
    if (page.rows().isEmpty() && current.isEmpty()) {
      throw notFound("the repository has no memory at this path");
    }
    long currentVersion = current.map(MemoryBrowser.MemoryText::version).orElse(0L);
    boolean currentLive = current.isPresent() && !current.get().deleted();
    List<Views.VersionRow> versions =
        page.rows().stream()
            .map(
                version ->
                    new Views.VersionRow(
                        version.version(),
                        version.author(),
                        Views.Time.of(version.createdAt()),
                        Views.kilobytes(version.bytes()),
                        version.operation(),
                        version.deleted(),
                        currentLive && version.version() == currentVersion))
            .toList();
    Views.DiffView diff = null;
    if (from != null && to != null) {
      Map<Long, MemoryBrowser.VersionText> texts = new LinkedHashMap<>();
      for (MemoryBrowser.VersionText text :
          browser.versionTexts(target, key, from.equals(to) ? List.of(from) : List.of(from, to))) {
        texts.put(text.version(), text);
      }
      if (!texts.containsKey(from) || !texts.containsKey(to)) {
        throw notFound("the memory has no kept version " + (texts.containsKey(from) ? to : from));
      }
      diff =
          new Views.DiffView(
              from, to, LineDiff.of(texts.get(from).content(), texts.get(to).content()));
    }
    String memoryHref = memoryHref(slug, key);
    Views.Link next =
        page.more()
            ? new Views.Link(
                memoryHref + "/history?offset=" + (start + PAGE_SIZE), "Older versions")
            : null;
    return Templates.history(
        chrome("History of " + key + " · " + slug),
        new Views.HistoryView(
            slug.toString(),
            repositoryHref(slug),
            key,
            memoryHref,
            memoryHref + "/history",
            versions,
            diff,
            currentVersion,
            authorization.permission(slug).allowsWrite(),
            session.require().csrfToken(),
            next));
  }

  private static List<Views.Folder> folders(
      RepositorySlug slug, List<MemoryBrowser.MemorySummary> memories) {
    Map<String, List<Views.MemoryRow>> byFolder = new LinkedHashMap<>();
    for (MemoryBrowser.MemorySummary memory : memories) {
      int slash = memory.path().lastIndexOf('/');
      String folder = slash < 0 ? "/" : memory.path().substring(0, slash + 1);
      byFolder.computeIfAbsent(folder, unused -> new ArrayList<>()).add(memoryRow(slug, memory));
    }
    List<Views.Folder> folders = new ArrayList<>();
    byFolder.forEach((folder, rows) -> folders.add(new Views.Folder(folder, rows)));
    return folders;
  }

  private static Views.MemoryRow memoryRow(
      RepositorySlug slug, MemoryBrowser.MemorySummary memory) {
    Frontmatter frontmatter = Frontmatter.of(memory.head());
    int slash = memory.path().lastIndexOf('/');
    return new Views.MemoryRow(
        memory.path(),
        memory.path().substring(slash + 1),
        memoryHref(slug, memory.path()),
        frontmatter.field("name").orElse(""),
        frontmatter.field("type").orElse(""),
        frontmatter.field("description").orElse(""),
        Views.kilobytes(memory.bytes()),
        memory.author(),
        Views.Time.of(memory.updatedAt()));
  }

  private Views.Chrome chrome(String title) {
    Optional<ConsoleSessions.Session> current = session.get();
    return new Views.Chrome(
        title,
        current.map(ConsoleSessions.Session::user).orElse(null),
        current.map(ConsoleSessions.Session::csrfToken).orElse(null));
  }

  private void requireCsrf(String csrf) {
    requireCsrf(session, csrf);
  }

  /** Refuses a form that does not carry the session's CSRF token. */
  static void requireCsrf(CurrentSession session, String csrf) {
    if (!RandomIds.same(session.require().csrfToken(), csrf)) {
      throw ApiException.of(
          403,
          "forbidden",
          "the form was not sent from this console (its CSRF token is missing or wrong); reload the page and try again");
    }
  }

  private static String requireField(String name, String value) {
    if (value == null || value.isEmpty()) {
      throw ApiException.of(400, "invalid_parameter", "the form has no " + name);
    }
    return value;
  }

  private static long version(String name, String value) {
    try {
      long parsed = Long.parseLong(value == null ? "" : value.strip());
      if (parsed >= 0) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw ApiException.of(
        400, "invalid_parameter", "the form's " + name + " is not a version number");
  }

  private static ApiException notFound(String message) {
    return ApiException.of(404, "not_found", message);
  }

  static String repositoryHref(RepositorySlug slug) {
    return "/console/repos/" + slug.owner() + "/" + slug.name();
  }

  /** The memory's page: each segment of its path encoded, the slashes kept. */
  static String memoryHref(RepositorySlug slug, String path) {
    StringBuilder href = new StringBuilder(repositoryHref(slug)).append("/memories");
    for (String segment : path.split("/", -1)) {
      href.append('/').append(urlEncode(segment).replace("+", "%20"));
    }
    return href.toString();
  }

  static String urlEncode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  /** Every refusal of a console page as a page, in words, with its status. */
  @ServerExceptionMapper
  Response refused(ApiException exception) {
    return errorResponse(exception.status(), exception.getMessage());
  }

  static Response errorResponse(int status, String message) {
    return Response.status(status)
        .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
        .entity(
            Templates.error(
                    new Views.Chrome("Error " + status, null, null),
                    new Views.ErrorView(status, message))
                .render())
        .build();
  }
}
