package dev.teammemory.protocol.client;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.protocol.ProtocolJson;
import dev.teammemory.protocol.store.ExportSummary;
import dev.teammemory.protocol.store.MemoryDeleted;
import dev.teammemory.protocol.store.MemoryPage;
import dev.teammemory.protocol.store.MemoryPathRules;
import dev.teammemory.protocol.store.StoreRef;
import dev.teammemory.protocol.store.StoredMemory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Consumer;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;

/**
 * The per-memory calls of the Memory Stores API (MEMORY-STORES.md) that team sync needs, over the
 * connection, token and headers of the {@link TeamMemoryClient} that made it. A {@code 409} (a
 * stale {@code content_sha256}, an existing path) is {@link Response.Conflict}.
 */
public final class MemoryStoreClient {

  private static final MediaType JSON = MediaType.get("application/json");

  /** The largest page the API serves. */
  static final int PAGE_SIZE = 100;

  private final TeamMemoryClient owner;

  MemoryStoreClient(TeamMemoryClient owner) {
    this.owner = owner;
  }

  /**
   * {@code POST /v1/memory_stores} bound to {@code repo}: answers the repository's store, new or
   * existing (creating needs push access).
   */
  public Response<StoreRef> createStore(String repo) {
    requireNonNull(repo, "repo is null");
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", repo);
    body.put("metadata", Map.of("repo", repo));
    return send(post(stores().build(), body), StoreRef.class);
  }

  /** Creates the memory of {@code key}, only if no memory has that path yet. */
  public Response<StoredMemory> create(String storeId, String key, String content) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("path", MemoryPathRules.pathOf(key));
    body.put("content", requireNonNull(content, "content is null"));
    body.put("precondition", Map.of("type", "not_exists"));
    return send(post(memories(storeId).build(), body), StoredMemory.class);
  }

  /** Replaces the content, only while the memory still has {@code expectedSha256}. */
  public Response<StoredMemory> update(
      String storeId, String memoryId, String content, String expectedSha256) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("content", requireNonNull(content, "content is null"));
    body.put(
        "precondition",
        Map.of(
            "type",
            "content_sha256",
            "content_sha256",
            requireNonNull(expectedSha256, "expectedSha256 is null")));
    return send(post(memories(storeId).addPathSegment(memoryId).build(), body), StoredMemory.class);
  }

  /** Deletes the memory, only while it still has {@code expectedSha256}. */
  public Response<MemoryDeleted> delete(String storeId, String memoryId, String expectedSha256) {
    HttpUrl url =
        memories(storeId)
            .addPathSegment(memoryId)
            .addQueryParameter("expected_content_sha256", expectedSha256)
            .build();
    return send(owner.authorized(url).delete().build(), MemoryDeleted.class);
  }

  /** One memory with its content. */
  public Response<StoredMemory> get(String storeId, String memoryId) {
    HttpUrl url = memories(storeId).addPathSegment(memoryId).build();
    return send(owner.authorized(url).get().build(), StoredMemory.class);
  }

  /** A page of every memory, without content ({@code view=basic}), in path order. */
  public Response<MemoryPage> list(String storeId, Optional<String> page) {
    HttpUrl.Builder url =
        memories(storeId)
            .addQueryParameter("view", "basic")
            .addQueryParameter("order_by", "path")
            .addQueryParameter("limit", Integer.toString(PAGE_SIZE));
    page.ifPresent(cursor -> url.addQueryParameter("page", cursor));
    return send(owner.authorized(url.build()).get().build(), MemoryPage.class);
  }

  /**
   * {@code GET …/memories/export}: every memory with its content, handed to {@code each} line by
   * line as the NDJSON arrives. The answer is {@link Response.Ok} only when the last line is the
   * {@code complete} line and counts exactly the memories read; an export cut short, miscounted or
   * not NDJSON is a {@link Response.TransportFailure}, and the caller must then discard what {@code
   * each} collected. A {@code 404} is a server without the export.
   */
  public Response<ExportSummary> export(String storeId, Consumer<StoredMemory> each) {
    requireNonNull(each, "each is null");
    HttpUrl url = memories(storeId).addPathSegment("export").build();
    Request request = owner.authorized(url).header("Accept", "application/x-ndjson").get().build();
    String call = "GET " + url.encodedPath();
    return owner.stream(request, body -> readExport(call, body, each));
  }

  private static Response<ExportSummary> readExport(
      String call, InputStream body, Consumer<StoredMemory> each) throws IOException {
    ObjectMapper json = ProtocolJson.mapper();
    BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    long count = 0;
    long lineNumber = 0;
    OptionalLong version = OptionalLong.empty();
    String line;
    while ((line = lines.readLine()) != null) {
      lineNumber++;
      if (line.isBlank()) {
        continue;
      }
      JsonNode node;
      try {
        node = json.readTree(line);
      } catch (JsonProcessingException e) {
        return broken(call, "line " + lineNumber + " is not valid JSON");
      }
      switch (node.path("type").asText("")) {
        case "store" -> {
          if (node.path("version").canConvertToExactIntegral()) {
            version = OptionalLong.of(node.path("version").asLong());
          }
        }
        case "memory" -> {
          StoredMemory memory;
          try {
            memory = json.treeToValue(node, StoredMemory.class);
          } catch (JsonProcessingException | RuntimeException e) {
            // The parser's own words could quote the content; the line number is enough.
            return broken(call, "line " + lineNumber + " is not a valid memory");
          }
          if (memory.contentIfRead().isEmpty()) {
            return broken(call, "line " + lineNumber + " has no content");
          }
          each.accept(memory);
          count++;
        }
        case "complete" -> {
          long counted = node.path("memory_count").asLong(-1);
          long errors = node.path("error_count").asLong(0);
          if (counted != count || errors != 0) {
            return broken(
                call,
                "the complete line counts "
                    + counted
                    + " memories and "
                    + errors
                    + " errors, but "
                    + count
                    + " arrived");
          }
          if (lines.readLine() != null) {
            return broken(call, "lines follow the complete line");
          }
          return new Response.Ok<>(new ExportSummary(count, version), Optional.empty());
        }
        default -> {
          // A line type this client does not know carries nothing it needs.
        }
      }
    }
    return broken(call, "the export ended after " + count + " memories without its complete line");
  }

  private static <T> Response<T> broken(String call, String why) {
    return new Response.TransportFailure<>(
        call + ": incomplete export: " + why, OptionalInt.of(200));
  }

  /** The API's {@code 409} is its precondition failure: a {@link Response.Conflict} here. */
  private <T> Response<T> send(Request request, Class<T> bodyType) {
    Response<T> response = owner.send(request, bodyType);
    if (response instanceof Response.Rejected<T> rejected && rejected.status() == 409) {
      return new Response.Conflict<>(rejected.error());
    }
    return response;
  }

  private HttpUrl.Builder stores() {
    return owner.base().newBuilder().addPathSegments("v1/memory_stores");
  }

  private HttpUrl.Builder memories(String storeId) {
    requireNonNull(storeId, "storeId is null");
    return stores().addPathSegment(storeId).addPathSegment("memories");
  }

  private Request post(HttpUrl url, Map<String, Object> body) {
    byte[] bytes;
    try {
      bytes = ProtocolJson.mapper().writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a request body did not serialise", e);
    }
    return owner.authorized(url).post(RequestBody.create(bytes, JSON)).build();
  }
}
