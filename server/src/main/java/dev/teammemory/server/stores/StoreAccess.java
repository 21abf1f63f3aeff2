package dev.teammemory.server.stores;

import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.Caller;
import dev.teammemory.server.auth.Permission;
import dev.teammemory.server.auth.RepositoryAuthorization;
import dev.teammemory.server.auth.RepositorySlug;
import dev.teammemory.server.errors.StoreApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The steps every request about one memory store takes after authentication: the store must exist
 * and the caller must be able to read its repository ({@code 404 not_found_error} either way, so
 * that a store's existence does not leak) and, to change it, push to it ({@code 403
 * permission_error}).
 */
@ApplicationScoped
public class StoreAccess {

  private static final Logger LOG = Logger.getLogger(StoreAccess.class);

  private final RepositoryAuthorization authorization;
  private final StoreReader reader;

  @Inject
  StoreAccess(RepositoryAuthorization authorization, StoreReader reader) {
    this.authorization = authorization;
    this.reader = reader;
  }

  /** The store, which the current caller may read. */
  public AuthorizedStore read(String storeId) {
    return authorize(storeId, reader.store(storeId), false);
  }

  /**
   * The store, read already (empty when no store has the id, as {@link StoreReader#store} answers),
   * which the current caller may read.
   */
  AuthorizedStore read(String storeId, Optional<StoreRow> found) {
    return authorize(storeId, found, false);
  }

  /** The store, which the current caller may write. */
  public AuthorizedStore write(String storeId) {
    return authorize(storeId, reader.store(storeId), true);
  }

  /** The repository a new store is for, which the current caller may push to. */
  public AuthorizedRepository create(RepositorySlug slug) {
    Caller caller = authorization.caller();
    Permission permission = authorization.permission(slug);
    if (!permission.allowsRead()) {
      LOG.infof("Refused: user %s has no access to %s", caller.user(), slug);
      throw StoreApiException.notFound(
          "repository " + slug + " was not found, or you have no access to it");
    }
    requireWrite(caller, slug, permission);
    return new AuthorizedRepository(caller, slug, permission);
  }

  private AuthorizedStore authorize(String storeId, Optional<StoreRow> found, boolean write) {
    StoreRow store = found.orElseThrow(() -> noSuchStore(storeId));
    Caller caller = authorization.caller();
    Permission permission = authorization.permission(store.slug());
    if (!permission.allowsRead()) {
      LOG.infof("Refused: user %s has no access to %s", caller.user(), store.slug());
      throw noSuchStore(storeId);
    }
    if (write) {
      requireWrite(caller, store.slug(), permission);
    }
    return new AuthorizedStore(new AuthorizedRepository(caller, store.slug(), permission), store);
  }

  private static void requireWrite(Caller caller, RepositorySlug slug, Permission permission) {
    if (!permission.allowsWrite()) {
      LOG.infof("Refused: user %s may only read %s", caller.user(), slug);
      throw new StoreApiException(
          403,
          StoreApiException.PERMISSION,
          "user "
              + caller.user()
              + " may read but not write "
              + slug
              + "; writing needs write (push) access");
    }
  }

  /** The {@code 404} of a store that does not exist or that the caller cannot see. */
  public static StoreApiException noSuchStore(String storeId) {
    return StoreApiException.notFound(
        "memory store " + printable(storeId) + " was not found, or you have no access to it");
  }

  /** An id from the request, shortened and stripped of what a log or message should not show. */
  static String printable(String id) {
    String shown = id == null ? "" : id.replaceAll("[^A-Za-z0-9_-]", "?");
    return shown.length() > 80 ? shown.substring(0, 80) + "…" : shown;
  }
}
