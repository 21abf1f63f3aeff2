package dev.teammemory.daemon.sync;

import java.util.Map;
import java.util.Optional;

/**
 * Where the bearer token for the team-memory server comes from. Asked before every request, so a
 * token that changes while the daemon runs (a new {@code tmem login}) is used at once and unblocks
 * a daemon that stopped on a 401.
 *
 * <p>Implementations must be thread-safe and cheap; they must never log the token. There are two:
 * {@link #environment(Map)} ({@code TMEM_TOKEN}) and the stored login, tried after it by {@link
 * #firstOf}.
 */
@FunctionalInterface
public interface TokenSource {

  /** The token to send now, or empty when there is none. */
  Optional<String> token();

  /** Where this source looks, for messages ("TMEM_TOKEN"); never the token. */
  default String describe() {
    return "a token source";
  }

  /** {@code TMEM_TOKEN} from the given environment. */
  static TokenSource environment(Map<String, String> environment) {
    String value = environment.get("TMEM_TOKEN");
    Optional<String> token =
        value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    return new TokenSource() {
      @Override
      public Optional<String> token() {
        return token;
      }

      @Override
      public String describe() {
        return "TMEM_TOKEN";
      }
    };
  }

  /** The first source that has a token. */
  static TokenSource firstOf(TokenSource first, TokenSource second) {
    return new TokenSource() {
      @Override
      public Optional<String> token() {
        return first.token().or(second::token);
      }

      @Override
      public String describe() {
        return first.describe() + " or " + second.describe();
      }
    };
  }
}
