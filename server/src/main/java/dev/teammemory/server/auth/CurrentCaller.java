package dev.teammemory.server.auth;

import jakarta.enterprise.context.RequestScoped;

/** The caller of the request being served, set by {@link BearerAuthenticationFilter}. */
@RequestScoped
public class CurrentCaller {

  private Authenticated authenticated;

  void set(Authenticated authenticated) {
    this.authenticated = authenticated;
  }

  /** The authenticated caller; every resource method runs after the filter set it. */
  public Caller get() {
    return authenticated().caller();
  }

  /** The authenticated caller, if the request has one (the auth discovery endpoint has none). */
  public java.util.Optional<Caller> find() {
    return java.util.Optional.ofNullable(authenticated).map(Authenticated::caller);
  }

  /** What the caller may do with the repository. */
  Permission permission(RepositorySlug repository) {
    return authenticated().access().permission(repository);
  }

  /** Every repository the caller may read. */
  Visibility visible() {
    return authenticated().access().visible();
  }

  private Authenticated authenticated() {
    if (authenticated == null) {
      throw new IllegalStateException("no authenticated caller on this request");
    }
    return authenticated;
  }
}
