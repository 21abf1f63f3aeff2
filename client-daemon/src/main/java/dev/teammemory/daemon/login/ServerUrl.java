package dev.teammemory.daemon.login;

import dev.teammemory.daemon.command.UserError;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;

/** The team-memory server a login is for: {@code --server URL}, else {@code TMEM_SERVER_URL}. */
final class ServerUrl {

  private ServerUrl() {}

  /** The normalised server URL, or a usage error that says how to name one. */
  static String resolve(String option, Map<String, String> environment) {
    boolean fromOption = option != null;
    String value = fromOption ? option : environment.get("TMEM_SERVER_URL");
    if (value == null || value.isBlank()) {
      throw UserError.usage("no server: pass --server URL or set TMEM_SERVER_URL");
    }
    String source = fromOption ? "--server" : "TMEM_SERVER_URL";
    String url = normalise(value);
    try {
      URI uri = new URI(url);
      if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())
          || uri.getHost() == null) {
        throw notAUrl(source, url);
      }
    } catch (URISyntaxException e) {
      throw notAUrl(source, url);
    }
    return url;
  }

  /** One spelling per server: surrounding blanks and trailing slashes removed. */
  static String normalise(String url) {
    String normalised = url.strip();
    while (normalised.endsWith("/")) {
      normalised = normalised.substring(0, normalised.length() - 1);
    }
    return normalised;
  }

  private static UserError notAUrl(String source, String url) {
    return UserError.usage(
        source
            + " is not an http(s) URL: "
            + url
            + "; name the server like https://team-memory.example.com");
  }
}
