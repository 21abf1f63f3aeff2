package dev.teammemory.protocol.suite;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where the server under test is and what it is configured with. Each value comes from a system
 * property ({@code tmem.protocol.url}), else from the environment variable of the same name in
 * upper case with {@code _} for {@code .} and {@code -} ({@code TMEM_PROTOCOL_URL}).
 *
 * @param url the server's base URL, such as {@code http://localhost:8080}
 * @param owner the GitHub owner under which every test creates its own {@code owner/suite-…}
 * @param writerToken a token with write access to every repository of {@code owner}
 * @param readerToken a token with read access only to every repository of {@code owner}
 * @param outsiderToken a valid token with no access to any repository of {@code owner}
 * @param organizationId what the server reports as {@code organizationId}; default the owner
 * @param maxEntries the server's entry cap (default 2,000)
 * @param maxEntryBytes the server's limit on one entry's content (default 250,000)
 * @param maxBodyBytes the server's limit on a PUT body (default 1 MiB)
 * @param maxRepositoryBytes the server's limit on a repository's content (default 50,000,000)
 * @param extensions whether to check the extensions (history, delete, change feed, auth config)
 */
public record SuiteConfig(
    URI url,
    String owner,
    String writerToken,
    String readerToken,
    String outsiderToken,
    String organizationId,
    int maxEntries,
    int maxEntryBytes,
    int maxBodyBytes,
    long maxRepositoryBytes,
    boolean extensions) {

  public static final String URL = "tmem.protocol.url";
  public static final String OWNER = "tmem.protocol.owner";
  public static final String WRITER_TOKEN = "tmem.protocol.writer-token";
  public static final String READER_TOKEN = "tmem.protocol.reader-token";
  public static final String OUTSIDER_TOKEN = "tmem.protocol.outsider-token";
  public static final String ORGANIZATION_ID = "tmem.protocol.organization-id";
  public static final String MAX_ENTRIES = "tmem.protocol.max-entries";
  public static final String MAX_ENTRY_BYTES = "tmem.protocol.max-entry-bytes";
  public static final String MAX_BODY_BYTES = "tmem.protocol.max-body-bytes";
  public static final String MAX_REPOSITORY_BYTES = "tmem.protocol.max-repository-bytes";
  public static final String EXTENSIONS = "tmem.protocol.extensions";

  public SuiteConfig {
    requireNonNull(url, "url is null");
    requireNonNull(owner, "owner is null");
    requireNonNull(writerToken, "writerToken is null");
    requireNonNull(readerToken, "readerToken is null");
    requireNonNull(outsiderToken, "outsiderToken is null");
    requireNonNull(organizationId, "organizationId is null");
    if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
      throw new IllegalArgumentException(URL + " is not an http or https URL: " + url);
    }
    if (!owner.matches("[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?")) {
      throw new IllegalArgumentException(OWNER + " is not a GitHub owner name: " + owner);
    }
    if (maxEntries < 1 || maxEntryBytes < 1 || maxBodyBytes < 1 || maxRepositoryBytes < 1) {
      throw new IllegalArgumentException("the configured limits must be positive");
    }
  }

  /** The configuration of this run, from system properties and environment variables. */
  public static SuiteConfig load() {
    return from(System::getProperty, System::getenv);
  }

  /**
   * Reads the configuration from {@code properties}, falling back to {@code environment}. All
   * missing required values are named at once, each with its property and its variable.
   */
  static SuiteConfig from(
      Function<String, String> properties, Function<String, String> environment) {
    Source source = new Source(properties, environment);
    List<String> missing = new ArrayList<>();
    String url = source.required(URL, "the server's base URL", missing);
    String owner = source.required(OWNER, "the GitHub owner the tests write under", missing);
    String writer = source.required(WRITER_TOKEN, "a token with write access", missing);
    String reader = source.required(READER_TOKEN, "a token with read access only", missing);
    String outsider = source.required(OUTSIDER_TOKEN, "a token without access", missing);
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "The protocol suite is not configured. Missing:\n  " + String.join("\n  ", missing));
    }
    return new SuiteConfig(
        URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url),
        owner,
        writer,
        reader,
        outsider,
        source.optional(ORGANIZATION_ID).orElse(owner),
        (int) source.number(MAX_ENTRIES, 2_000),
        (int) source.number(MAX_ENTRY_BYTES, 250_000),
        (int) source.number(MAX_BODY_BYTES, 1_048_576),
        source.number(MAX_REPOSITORY_BYTES, 50_000_000),
        source.bool(EXTENSIONS, true));
  }

  /** {@code tmem.protocol.writer-token} is read from {@code TMEM_PROTOCOL_WRITER_TOKEN}. */
  public static String variableOf(String property) {
    return property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  /** Never prints the tokens. */
  @Override
  public String toString() {
    return "SuiteConfig[url=%s, owner=%s, organizationId=%s, maxEntries=%d, maxEntryBytes=%d, maxBodyBytes=%d, maxRepositoryBytes=%d, extensions=%s]"
        .formatted(
            url,
            owner,
            organizationId,
            maxEntries,
            maxEntryBytes,
            maxBodyBytes,
            maxRepositoryBytes,
            extensions);
  }

  private record Source(Function<String, String> properties, Function<String, String> environment) {

    Optional<String> optional(String property) {
      String value = properties.apply(property);
      // Maven leaves ${tmem.protocol.x} as it is when the property is not defined.
      if (value == null || value.isBlank() || value.startsWith("${")) {
        value = environment.apply(variableOf(property));
      }
      return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }

    String required(String property, String meaning, List<String> missing) {
      Optional<String> value = optional(property);
      if (value.isEmpty()) {
        missing.add(
            "%s (system property -D%s=… or environment variable %s): %s"
                .formatted(property, property, variableOf(property), meaning));
        return "";
      }
      return value.get();
    }

    long number(String property, long defaultValue) {
      Optional<String> value = optional(property);
      if (value.isEmpty()) {
        return defaultValue;
      }
      try {
        return Long.parseLong(value.get().replace("_", ""));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            property + " (or " + variableOf(property) + ") is not a number: " + value.get(), e);
      }
    }

    boolean bool(String property, boolean defaultValue) {
      Optional<String> value = optional(property);
      if (value.isEmpty()) {
        return defaultValue;
      }
      return switch (value.get().toLowerCase(Locale.ROOT)) {
        case "true", "yes", "1" -> true;
        case "false", "no", "0" -> false;
        default ->
            throw new IllegalArgumentException(
                property
                    + " (or "
                    + variableOf(property)
                    + ") is not true or false: "
                    + value.get());
      };
    }
  }
}
