package dev.teammemory.server.console;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The data of each console template, one record per page: what a page shows is decided in {@link
 * Pages}, never in a template.
 */
final class Views {

  private Views() {}

  private static final DateTimeFormatter SHOWN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** A time as a page shows it: machine-readable in UTC, readable in UTC until script localises. */
  record Time(String iso, String text) {
    static Time of(Instant instant) {
      return new Time(DateTimeFormatter.ISO_INSTANT.format(instant), SHOWN.format(instant));
    }
  }

  /** A size in KB, as people read it. */
  static String kilobytes(long bytes) {
    return String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0);
  }

  /** What every page shows around its content: who is signed in, the sign-out form's token. */
  record Chrome(String title, String user, String csrf) {}

  /** A link with its text. */
  record Link(String href, String text) {}

  record RepositoryRow(String slug, String href, int memories, String size, Time lastChange) {}

  record RepositoriesView(List<RepositoryRow> rows, Link next) {}

  record MemoryRow(
      String path,
      String fileName,
      String href,
      String name,
      String type,
      String description,
      String size,
      String author,
      Time updated) {}

  record Folder(String name, List<MemoryRow> memories) {}

  record RepositoryView(
      String slug,
      String href,
      String activityHref,
      String reviewHref,
      int memories,
      String size,
      Time lastChange,
      String query,
      List<Folder> folders,
      List<MemoryRow> results,
      boolean searching,
      String memoryIndexHtml,
      Link next) {}

  record Field(String name, String value) {}

  record MemoryView(
      String slug,
      String repositoryHref,
      String path,
      String href,
      String historyHref,
      String html,
      String raw,
      List<Field> fields,
      String author,
      Time updated,
      String size,
      long version,
      boolean deleted,
      boolean canWrite,
      String csrf,
      String message) {}

  record VersionRow(
      long version,
      String author,
      Time created,
      String size,
      String operation,
      boolean deleted,
      boolean current) {}

  record DiffView(long from, long to, List<LineDiff.Row> rows) {}

  record HistoryView(
      String slug,
      String repositoryHref,
      String path,
      String memoryHref,
      String historyHref,
      List<VersionRow> versions,
      DiffView diff,
      long currentVersion,
      boolean canWrite,
      String csrf,
      Link next) {}

  record ChangeRow(
      String path,
      String href,
      long version,
      String author,
      Time created,
      String operation,
      String size) {}

  record ActivityView(String slug, String repositoryHref, List<ChangeRow> changes, Link next) {}

  /** One of a page's tabs: its link, its text, and whether it is the page shown. */
  record Tab(String href, String text, boolean current) {}

  /** One change made while the repository required review, as the queue lists it. */
  record ReviewRow(
      String id,
      String href,
      String key,
      String memoryHref,
      String author,
      String operation,
      long version,
      Time created,
      String status,
      String reviewer,
      String comment,
      Time decided) {}

  record ReviewQueueView(
      String slug,
      String repositoryHref,
      String settingsAction,
      String auditHref,
      boolean reviewRequired,
      boolean canAdminister,
      boolean canReview,
      String status,
      List<Tab> tabs,
      List<ReviewRow> changes,
      String csrf,
      Link next) {}

  record ReviewChangeView(
      String slug,
      String repositoryHref,
      String queueHref,
      ReviewRow change,
      String renamedFrom,
      String comparedWith,
      boolean textGone,
      boolean deletes,
      List<LineDiff.Row> diff,
      boolean canDecide,
      int maxComment,
      String csrf,
      String message) {}

  record AuditRow(
      Time at, String action, String actor, String key, String changeHref, String detail) {}

  record AuditView(
      String slug, String repositoryHref, String queueHref, List<AuditRow> rows, Link next) {}

  record SignInView(String csrf, String next, String message, boolean gitHub) {}

  record DeviceView(String userCode, String verificationUri, int refreshSeconds) {}

  record ErrorView(int status, String message) {}
}
