package dev.teammemory.server.auth;

import jakarta.enterprise.context.RequestScoped;
import java.util.Optional;

/** The caller of the request being served, set by {@link BearerAuthenticationFilter}. */
@RequestScoped
public class CurrentCaller {

  private Caller caller;

  void set(Caller caller) {
    this.caller = caller;
  }

  /** The authenticated caller; every resource method runs after the filter set it. */
  public Caller get() {
    return Optional.ofNullable(caller)
        .orElseThrow(() -> new IllegalStateException("no authenticated caller on this request"));
  }
}
