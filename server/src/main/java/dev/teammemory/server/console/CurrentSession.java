package dev.teammemory.server.console;

import jakarta.enterprise.context.RequestScoped;
import java.util.Optional;

/** The session of the console request being served, set by {@link SessionFilter}. */
@RequestScoped
class CurrentSession {

  private ConsoleSessions.Session session;

  void set(ConsoleSessions.Session session) {
    this.session = session;
  }

  Optional<ConsoleSessions.Session> get() {
    return Optional.ofNullable(session);
  }

  ConsoleSessions.Session require() {
    if (session == null) {
      throw new IllegalStateException("no console session on this request");
    }
    return session;
  }
}
