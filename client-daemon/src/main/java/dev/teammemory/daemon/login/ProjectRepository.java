package dev.teammemory.daemon.login;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.sync.GitCheckout;
import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The GitHub repository of the folder {@code tmem login} runs in, from the checkout's {@code
 * origin} remote on the server's GitHub host; or, when there is none, why not, in words.
 */
sealed interface ProjectRepository {

  /** The folder's repository, {@code owner/name}. */
  record Known(String slug) implements ProjectRepository {
    public Known {
      requireNonNull(slug, "slug is null");
    }
  }

  /** No repository: {@code why} says what is missing, for a person. */
  record Unknown(String why) implements ProjectRepository {
    public Unknown {
      requireNonNull(why, "why is null");
    }
  }

  /** Reads the origin remote of the checkout containing {@code directory}. */
  static ProjectRepository detect(Path directory, String githubHost) {
    Optional<Path> checkout = GitCheckout.root(directory);
    if (checkout.isEmpty()) {
      return new Unknown(directory + " is not in a git checkout");
    }
    Optional<String> origin = GitCheckout.originUrl(checkout.get());
    if (origin.isEmpty()) {
      return new Unknown(checkout.get() + " has no remote named origin");
    }
    return GitCheckout.repoOf(origin.get(), githubHost)
        .<ProjectRepository>map(Known::new)
        .orElseGet(
            () ->
                new Unknown(
                    "the origin of "
                        + checkout.get()
                        + " ("
                        + GitCheckout.withoutUserInfo(origin.get())
                        + ") is not a repository on "
                        + githubHost));
  }

  /**
   * The host whose remotes are GitHub repositories, from the GitHub API URL the server names:
   * {@code https://api.github.com} is github.com, {@code https://api.acme.ghe.com} is acme.ghe.com,
   * and a GitHub Enterprise Server's {@code https://github.acme.com/api/v3} is github.acme.com.
   */
  static String githubHost(String apiUrl) {
    String host;
    try {
      host = URI.create(apiUrl.strip()).getHost();
    } catch (IllegalArgumentException e) {
      host = null;
    }
    if (host == null || host.isEmpty()) {
      return "github.com";
    }
    host = host.toLowerCase(Locale.ROOT);
    return host.startsWith("api.") ? host.substring("api.".length()) : host;
  }
}
