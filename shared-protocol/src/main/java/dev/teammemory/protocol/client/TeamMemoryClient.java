package dev.teammemory.protocol.client;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.teammemory.protocol.AuthConfig;
import dev.teammemory.protocol.BatchPlanner;
import dev.teammemory.protocol.ConsoleSignInCode;
import dev.teammemory.protocol.DeleteResponse;
import dev.teammemory.protocol.ETags;
import dev.teammemory.protocol.EntryHistory;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.MemoryStoreLocation;
import dev.teammemory.protocol.ProtocolJson;
import dev.teammemory.protocol.PutResponse;
import dev.teammemory.protocol.RepositorySettings;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.ReviewPage;
import dev.teammemory.protocol.TooManyEntries;
import dev.teammemory.protocol.VersionChanges;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;

/**
 * A typed client of the team-memory protocol (PROTOCOL.md) over okhttp. Every call returns a {@link
 * Response}: the protocol's outcomes are values, and so are network failures, so a caller never
 * catches an exception for something a server or a network can do.
 *
 * <p>Every request carries {@code Authorization: Bearer <token>} (except {@link #authConfig()}),
 * {@code anthropic-beta: oauth-2025-04-20}, the caller's {@code User-Agent} and {@code Accept:
 * application/json}. The token is asked of the supplier at every request, so a refreshed login is
 * used at once; a supplier that returns null or blank sends no {@code Authorization} header and the
 * server answers {@link Response.Unauthorized}.
 */
public final class TeamMemoryClient implements AutoCloseable {

  static final String MEMORY_PATH = "api/claude_code/team_memory";
  static final String BETA_HEADER = "anthropic-beta";
  static final String BETA_VALUE = "oauth-2025-04-20";

  private static final MediaType JSON = MediaType.get("application/json");
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration CALL_TIMEOUT = Duration.ofMinutes(2);
  private static final int MAX_WAIT_SECONDS = 60;
  private static final Pattern MISSING_PROPERTY =
      Pattern.compile("Missing required creator property '([^']*)'");

  private final OkHttpClient http;
  private final HttpUrl baseUrl;
  private final Supplier<String> bearerToken;
  private final String userAgent;
  private final boolean ownsHttp;

  /**
   * A client with its own connection pool and sensible timeouts (connect 10 s, read and write 30 s,
   * whole call 2 min; {@link #waitForChange} extends them by the wait). {@link #close()} releases
   * them.
   */
  public TeamMemoryClient(String baseUrl, Supplier<String> bearerToken, String userAgent) {
    this(
        new OkHttpClient.Builder()
            .connectTimeout(CONNECT_TIMEOUT)
            .readTimeout(READ_TIMEOUT)
            .writeTimeout(WRITE_TIMEOUT)
            .callTimeout(CALL_TIMEOUT)
            .build(),
        baseUrl,
        bearerToken,
        userAgent,
        true);
  }

  /**
   * A client over the caller's {@code http}, which keeps its timeouts, proxy and pool; {@link
   * #close()} leaves it open.
   */
  public TeamMemoryClient(
      OkHttpClient http, String baseUrl, Supplier<String> bearerToken, String userAgent) {
    this(http, baseUrl, bearerToken, userAgent, false);
  }

  private TeamMemoryClient(
      OkHttpClient http,
      String baseUrl,
      Supplier<String> bearerToken,
      String userAgent,
      boolean ownsHttp) {
    this.http = requireNonNull(http, "http is null");
    requireNonNull(baseUrl, "baseUrl is null");
    this.baseUrl = HttpUrl.parse(baseUrl);
    if (this.baseUrl == null) {
      throw new IllegalArgumentException("baseUrl is not an http or https URL: " + baseUrl);
    }
    this.bearerToken = requireNonNull(bearerToken, "bearerToken is null");
    requireNonNull(userAgent, "userAgent is null");
    // Fails now, not at the first request, when the agent holds characters a header cannot.
    new Headers.Builder().add("User-Agent", userAgent);
    this.userAgent = userAgent;
    this.ownsHttp = ownsHttp;
  }

  /**
   * {@code GET} the whole repository. With {@code ifNoneMatchChecksum}, a repository still at that
   * checksum answers {@link Response.NotModified}. A never-written repository is {@link
   * Response.NotFound}.
   */
  public Response<RepositorySnapshot> fetch(String repo, Optional<String> ifNoneMatchChecksum) {
    requireNonNull(ifNoneMatchChecksum, "ifNoneMatchChecksum is null");
    Request.Builder request = authorized(memoryUrl(repo).build()).get();
    ifNoneMatchChecksum.ifPresent(
        checksum -> request.header("If-None-Match", ETags.quote(checksum)));
    return execute(http, request.build(), RepositorySnapshot.class);
  }

  /** {@code GET ?view=hashes}: version, checksum and entry checksums, without entry bodies. */
  public Response<HashesView> fetchHashes(String repo) {
    HttpUrl url = memoryUrl(repo).addQueryParameter("view", "hashes").build();
    return execute(http, authorized(url).get().build(), HashesView.class);
  }

  /**
   * {@code PUT} an upsert-merge of {@code entries}. The body is written exactly as {@link
   * BatchPlanner} counts it; plan batches with it first. With {@code ifMatchChecksum}, a repository
   * no longer at that checksum answers {@link Response.Conflict} and nothing is written.
   */
  public Response<PutResponse> put(
      String repo, Map<String, String> entries, Optional<String> ifMatchChecksum) {
    requireNonNull(entries, "entries is null");
    requireNonNull(ifMatchChecksum, "ifMatchChecksum is null");
    RequestBody body = RequestBody.create(BatchPlanner.body(entries), JSON);
    Request.Builder request = authorized(memoryUrl(repo).build()).put(body);
    ifMatchChecksum.ifPresent(checksum -> request.header("If-Match", ETags.quote(checksum)));
    return execute(http, request.build(), PutResponse.class);
  }

  /**
   * {@code DELETE ?key=k} (an extension): the key leaves the repository and is listed in {@code
   * deletedKeys}. {@code ifMatchChecksum} works as for {@link #put}.
   */
  public Response<DeleteResponse> delete(
      String repo, String key, Optional<String> ifMatchChecksum) {
    requireNonNull(key, "key is null");
    requireNonNull(ifMatchChecksum, "ifMatchChecksum is null");
    HttpUrl url = memoryUrl(repo).addQueryParameter("key", key).build();
    Request.Builder request = authorized(url).delete();
    ifMatchChecksum.ifPresent(checksum -> request.header("If-Match", ETags.quote(checksum)));
    return execute(http, request.build(), DeleteResponse.class);
  }

  /**
   * {@code DELETE ?key=k&expected_checksum=…} (an extension): deletes the key only while it still
   * has {@code expectedChecksum}; a teammate's newer content answers {@link Response.Conflict} and
   * stays. A key already deleted answers {@link Response.Ok}.
   */
  public Response<DeleteResponse> deleteExpecting(
      String repo, String key, String expectedChecksum) {
    requireNonNull(key, "key is null");
    requireNonNull(expectedChecksum, "expectedChecksum is null");
    HttpUrl url =
        memoryUrl(repo)
            .addQueryParameter("key", key)
            .addQueryParameter("expected_checksum", expectedChecksum)
            .build();
    return execute(http, authorized(url).delete().build(), DeleteResponse.class);
  }

  /**
   * Where the repository's memory store is served (an extension); {@link Response.NotFound} when
   * the repository has none or the server has no Memory Stores API.
   */
  public Response<MemoryStoreLocation> memoryStore(String repo) {
    HttpUrl url = memoryUrl(repo).addPathSegment("store").build();
    return execute(http, authorized(url).get().build(), MemoryStoreLocation.class);
  }

  /**
   * The repository's review setting (an extension): whether its changes wait for a reviewer; {@link
   * Response.NotFound} from a server without review.
   */
  public Response<RepositorySettings> settings(String repo) {
    HttpUrl url = memoryUrl(repo).addPathSegment("settings").build();
    return execute(http, authorized(url).get().build(), RepositorySettings.class);
  }

  /**
   * A page of the repository's changes made while it required review, in {@code status} ({@code
   * pending}, {@code approved} or {@code rejected}), oldest first (an extension): the caller's own,
   * or everyone's for a reviewer; the first page, or the one a previous page's {@link
   * ReviewPage#nextPage()} names. {@link Response.NotFound} from a server without review.
   */
  public Response<ReviewPage> reviews(String repo, String status, Optional<String> page) {
    requireNonNull(status, "status is null");
    requireNonNull(page, "page is null");
    HttpUrl.Builder url =
        memoryUrl(repo).addPathSegment("reviews").addQueryParameter("status", status);
    page.ifPresent(cursor -> url.addQueryParameter("page", cursor));
    return execute(http, authorized(url.build()).get().build(), ReviewPage.class);
  }

  /**
   * A single-use link into the server's console at {@code repo}'s page (an extension, for {@code
   * tmem console}): the server mints a short-lived code; the token never goes into a URL.
   */
  public Response<ConsoleSignInCode> consoleSignInCode(String repo) {
    requireNonNull(repo, "repo is null");
    HttpUrl url =
        baseUrl
            .newBuilder()
            .addPathSegments("api/console/sign-in-code")
            .addQueryParameter("repo", repo)
            .build();
    return execute(
        http,
        authorized(url).post(okhttp3.RequestBody.create(new byte[0], null)).build(),
        ConsoleSignInCode.class);
  }

  /**
   * The change feed (an extension): the hashes view as soon as the repository's checksum differs
   * from {@code sinceChecksum}, or {@link Response.NotModified} once {@code wait} has passed
   * without a change. The server waits at most 60 seconds, so a longer wait is sent as 60; a
   * fraction of a second counts as a whole one.
   */
  public Response<HashesView> waitForChange(String repo, String sinceChecksum, Duration wait) {
    requireNonNull(sinceChecksum, "sinceChecksum is null");
    requireNonNull(wait, "wait is null");
    if (wait.isNegative()) {
      throw new IllegalArgumentException("wait is negative: " + wait);
    }
    long seconds = Math.min(MAX_WAIT_SECONDS, ceilingSeconds(wait));
    HttpUrl url =
        memoryUrl(repo)
            .addPathSegment("changes")
            .addQueryParameter("since", sinceChecksum)
            .addQueryParameter("wait", Long.toString(seconds))
            .build();
    // The server holds the request open for the wait; the timeouts must outlast it.
    Duration held = Duration.ofSeconds(seconds);
    OkHttpClient patient =
        http.newBuilder()
            .readTimeout(Duration.ofMillis(http.readTimeoutMillis()).plus(held))
            .callTimeout(
                http.callTimeoutMillis() == 0
                    ? Duration.ZERO
                    : Duration.ofMillis(http.callTimeoutMillis()).plus(held))
            .build();
    return execute(patient, authorized(url).get().build(), HashesView.class);
  }

  /**
   * The change feed by version (an extension): the keys written after {@code afterVersion} with
   * their checksums (and the deleted ones) as soon as there are any, a reset when the server cannot
   * answer for that version, or {@link Response.NotModified} once {@code wait} has passed.
   */
  public Response<VersionChanges> changesAfter(String repo, long afterVersion, Duration wait) {
    requireNonNull(wait, "wait is null");
    if (afterVersion < 0 || wait.isNegative()) {
      throw new IllegalArgumentException("negative version or wait: " + afterVersion + ", " + wait);
    }
    long seconds = Math.min(MAX_WAIT_SECONDS, ceilingSeconds(wait));
    HttpUrl url =
        memoryUrl(repo)
            .addPathSegment("changes")
            .addQueryParameter("after_version", Long.toString(afterVersion))
            .addQueryParameter("wait", Long.toString(seconds))
            .build();
    return execute(
        patient(Duration.ofSeconds(seconds)), authorized(url).get().build(), VersionChanges.class);
  }

  private OkHttpClient patient(Duration held) {
    return http.newBuilder()
        .readTimeout(Duration.ofMillis(http.readTimeoutMillis()).plus(held))
        .callTimeout(
            http.callTimeoutMillis() == 0
                ? Duration.ZERO
                : Duration.ofMillis(http.callTimeoutMillis()).plus(held))
        .build();
  }

  /** The newest page of the kept versions of one key, newest first (an extension). */
  public Response<EntryHistory> history(String repo, String key) {
    return history(repo, key, Optional.empty());
  }

  /**
   * A page of the kept versions of one key, newest first: the newest page, or the one a previous
   * page's {@link EntryHistory#next()} names.
   */
  public Response<EntryHistory> history(String repo, String key, Optional<String> page) {
    requireNonNull(key, "key is null");
    requireNonNull(page, "page is null");
    HttpUrl.Builder url = memoryUrl(repo).addPathSegment("history").addQueryParameter("key", key);
    page.ifPresent(cursor -> url.addQueryParameter("page", cursor));
    return execute(http, authorized(url.build()).get().build(), EntryHistory.class);
  }

  /** Where to log in (an extension); needs no token, so it is sent without one. */
  public Response<AuthConfig> authConfig() {
    HttpUrl url = baseUrl.newBuilder().addPathSegments("api/auth/config").build();
    return execute(http, common(url).get().build(), AuthConfig.class);
  }

  /**
   * Whether the server at the base URL answers as a Team Memory server: its auth discovery gives
   * the discovery body, or an error in the protocol's envelope (a server with static tokens only
   * answers {@code 404 not_found}). False for anything else that answered (a web page, another
   * API); empty when it could not be asked (down, failing).
   */
  public Optional<Boolean> speaksTeamMemory() {
    return switch (authConfig()) {
      case Response.Ok<AuthConfig> ok -> Optional.of(true);
      case Response.NotFound<AuthConfig> notFound ->
          Optional.of(notFound.error().flatMap(ErrorEnvelope::errorCode).isPresent());
      case Response.Rejected<AuthConfig> rejected ->
          Optional.of(rejected.error().flatMap(ErrorEnvelope::errorCode).isPresent());
      case Response.Unauthorized<AuthConfig> unauthorized ->
          Optional.of(unauthorized.error().flatMap(ErrorEnvelope::errorCode).isPresent());
      case Response.TransportFailure<AuthConfig> failure ->
          failure.status().isPresent()
                  && failure.status().getAsInt() >= 200
                  && failure.status().getAsInt() < 300
              ? Optional.of(false)
              : Optional.empty();
      default -> Optional.empty();
    };
  }

  /** The server's base URL, for messages. */
  public String serverUrl() {
    return baseUrl.toString();
  }

  /** The Memory Stores API of the same server, over this client's connection and token. */
  public MemoryStoreClient memoryStores() {
    return new MemoryStoreClient(this);
  }

  HttpUrl base() {
    return baseUrl;
  }

  <T> Response<T> send(Request request, Class<T> bodyType) {
    return execute(http, request, bodyType);
  }

  /** Reads a successful answer's body as it arrives; anything else is read as {@code send} does. */
  @FunctionalInterface
  interface BodyStream<T> {
    Response<T> read(java.io.InputStream body) throws IOException;
  }

  /**
   * Sends {@code request} and hands a {@code 2xx} body to {@code reader} as a stream, so a body of
   * any length is never held whole. The call has no overall time limit (a body's length grows with
   * what it carries); a stall still ends it at the read timeout.
   */
  <T> Response<T> stream(Request request, BodyStream<T> reader) {
    String call = request.method() + " " + request.url().encodedPath();
    OkHttpClient unbounded = http.newBuilder().callTimeout(Duration.ZERO).build();
    try (okhttp3.Response response = unbounded.newCall(request).execute()) {
      int status = response.code();
      if (status >= 200 && status < 300) {
        return reader.read(response.body().byteStream());
      }
      @SuppressWarnings("unchecked")
      Response<T> other =
          (Response<T>)
              interpret(
                  call,
                  status,
                  response.header("ETag"),
                  retryAfter(response.header("Retry-After")),
                  response.body().bytes(),
                  Object.class);
      return other;
    } catch (IOException e) {
      return new Response.TransportFailure<>(call + " failed: " + describe(e), OptionalInt.empty());
    }
  }

  /** Releases the connection pool and threads of a client this class built; not a caller's. */
  @Override
  public void close() {
    if (ownsHttp) {
      http.dispatcher().executorService().shutdown();
      http.connectionPool().evictAll();
    }
  }

  private HttpUrl.Builder memoryUrl(String repo) {
    requireNonNull(repo, "repo is null");
    // addQueryParameter percent-encodes '/' in a value, so the slug travels as acme%2Fwidgets.
    return baseUrl.newBuilder().addPathSegments(MEMORY_PATH).addQueryParameter("repo", repo);
  }

  private Request.Builder common(HttpUrl url) {
    return new Request.Builder()
        .url(url)
        .header("Accept", "application/json")
        .header("User-Agent", userAgent)
        .header(BETA_HEADER, BETA_VALUE);
  }

  Request.Builder authorized(HttpUrl url) {
    Request.Builder request = common(url);
    String token = bearerToken.get();
    // A token with characters no token has (non-ASCII, spaces, control characters: a bad paste)
    // is not sent, so the server answers 401 and the caller says so in words.
    if (token != null && !token.isBlank() && token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      request.header("Authorization", "Bearer " + token);
    }
    return request;
  }

  private static <T> Response<T> execute(OkHttpClient http, Request request, Class<T> bodyType) {
    String call = request.method() + " " + request.url().encodedPath();
    byte[] body;
    int status;
    String etag;
    Optional<Duration> retryAfter;
    try (okhttp3.Response response = http.newCall(request).execute()) {
      status = response.code();
      etag = response.header("ETag");
      retryAfter = retryAfter(response.header("Retry-After"));
      body = response.body().bytes();
    } catch (IOException e) {
      return new Response.TransportFailure<>(call + " failed: " + describe(e), OptionalInt.empty());
    }
    return interpret(call, status, etag, retryAfter, body, bodyType);
  }

  /**
   * The longest wait a {@code retry-after} is taken at: a broken or hostile value waits no more.
   */
  static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(10);

  /**
   * {@code Retry-After} in delay-seconds or as an HTTP date, capped at {@link #MAX_RETRY_AFTER};
   * empty when absent or unreadable.
   */
  static Optional<Duration> retryAfter(String header) {
    if (header == null || header.isBlank()) {
      return Optional.empty();
    }
    String value = header.strip();
    Duration wait;
    try {
      wait = Duration.ofSeconds(Long.parseLong(value));
    } catch (NumberFormatException notSeconds) {
      try {
        java.time.Instant at =
            java.time.ZonedDateTime.parse(
                    value, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME)
                .toInstant();
        wait = Duration.between(java.time.Instant.now(), at);
      } catch (java.time.format.DateTimeParseException notDate) {
        return Optional.empty();
      }
    }
    if (wait.isNegative()) {
      return Optional.of(Duration.ZERO);
    }
    return Optional.of(wait.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : wait);
  }

  private static <T> Response<T> interpret(
      String call,
      int status,
      String etag,
      Optional<Duration> retryAfter,
      byte[] body,
      Class<T> bodyType) {
    if (status >= 200 && status < 300) {
      try {
        T parsed = body.length == 0 ? null : ProtocolJson.mapper().readValue(body, bodyType);
        if (parsed == null) {
          return new Response.TransportFailure<>(
              call + ": " + status + " with an empty body, where an answer was expected",
              OptionalInt.of(status));
        }
        return new Response.Ok<>(parsed, Optional.ofNullable(etag).map(ETags::unquote));
      } catch (IOException e) {
        return new Response.TransportFailure<>(
            call
                + ": "
                + status
                + " with a body that is not the answer this call expects: "
                + describeParseFailure(e),
            OptionalInt.of(status));
      }
    }
    return switch (status) {
      case 304 -> new Response.NotModified<>();
      case 401 -> new Response.Unauthorized<>(envelope(body));
      case 404 -> new Response.NotFound<>(envelope(body));
      case 412 -> new Response.Conflict<>(envelope(body));
      case 413 -> {
        Optional<ErrorEnvelope> error = envelope(body);
        yield error
            .flatMap(TooManyEntries::from)
            .<Response<T>>map(
                cap -> new Response.TooManyEntries<>(cap.maxEntries(), cap.receivedEntries()))
            .orElseGet(() -> new Response.Rejected<>(413, error));
      }
      // A server too busy now refuses nothing: like a 5xx, it is a failure to reach it, which
      // callers wait out and retry. (OkHttp itself retries a 408.)
      case 429 ->
          new Response.TransportFailure<>(
              call + " answered " + status + " (busy; try again later)",
              OptionalInt.of(status),
              retryAfter);
      default -> {
        if (status >= 400 && status < 500) {
          yield new Response.Rejected<>(status, envelope(body));
        }
        String what = status >= 500 ? " answered " : " answered an unexpected status ";
        yield new Response.TransportFailure<>(
            call + what + status, OptionalInt.of(status), retryAfter);
      }
    };
  }

  /** The error envelope of a 4xx, when the body is one; servers and proxies may send other text. */
  private static Optional<ErrorEnvelope> envelope(byte[] body) {
    if (body.length == 0) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(ProtocolJson.mapper().readValue(body, ErrorEnvelope.class));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Why a body did not parse, by field name. Jackson's own messages can quote the offending value,
   * which may be an entry's content, so they are not repeated.
   */
  private static String describeParseFailure(IOException failure) {
    if (failure instanceof ValueInstantiationException invalid && invalid.getCause() != null) {
      // Our records' constructors name the field and never echo content.
      return invalid.getCause().getMessage();
    }
    if (failure instanceof MismatchedInputException mismatch) {
      Matcher missing = MISSING_PROPERTY.matcher(String.valueOf(mismatch.getOriginalMessage()));
      if (missing.find()) {
        return "missing required field '" + qualified(mismatch, missing.group(1)) + "'";
      }
      return "field '" + qualified(mismatch, null) + "' has the wrong type";
    }
    if (failure instanceof StreamReadException) {
      return "not valid JSON";
    }
    if (failure instanceof JacksonException) {
      return "not readable as the protocol's JSON";
    }
    return describe(failure);
  }

  /**
   * The dotted path of the field a mapping failure is about, ending in {@code child} (Jackson
   * versions differ on whether the path already names a missing property).
   */
  private static String qualified(JsonMappingException failure, String child) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference reference : failure.getPath()) {
      if (reference.getFieldName() != null) {
        path.append(path.isEmpty() ? "" : ".").append(reference.getFieldName());
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      }
    }
    List<JsonMappingException.Reference> references = failure.getPath();
    boolean named =
        !references.isEmpty() && Objects.equals(references.getLast().getFieldName(), child);
    if (child != null && !named) {
      path.append(path.isEmpty() ? "" : ".").append(child);
    }
    return path.isEmpty() ? "(root)" : path.toString();
  }

  /**
   * A connection failure in words a person reads (never Java's class names): what happened, and
   * where that is known the likely cause. Also the words of the login's calls to GitHub.
   */
  public static String describe(IOException failure) {
    return switch (failure) {
      case java.net.UnknownHostException unknown -> "the server's host name is not known";
      case java.net.ConnectException refused ->
          "nothing answers at the server's address (connection refused; is the server running?)";
      case java.net.SocketTimeoutException timeout -> "the server did not answer in time";
      case javax.net.ssl.SSLException tls ->
          "the secure connection failed (is the URL https where the server speaks plain http, or"
              + " the reverse?)";
      case java.io.InterruptedIOException interrupted -> "the request was interrupted";
      case java.net.ProtocolException protocol -> "the server broke the HTTP protocol";
      case java.io.EOFException closed -> "the server closed the connection mid-answer";
      default -> "the connection failed";
    };
  }

  private static long ceilingSeconds(Duration wait) {
    long seconds = wait.getSeconds();
    return wait.getNano() > 0 ? seconds + 1 : seconds;
  }
}
