package dev.teammemory.protocol.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.PutResponse;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.protocol.suite.ProtocolServer.Caller;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Concurrent writers serialise per repository and never lose an acknowledged write (DESIGN.md
 * "Concurrency"; PROTOCOL.md "version" and "The whole PUT is one transaction").
 */
class ConcurrentWritersTest {

  private static final int WRITERS = 8;
  private static final int MAX_KEYS_PER_WRITER = 5;
  private static final int MAX_ATTEMPTS_PER_KEY = 500;

  private static ProtocolServer server;

  /** As many as the entry cap leaves room for beside the seed entry, at most 5. */
  private static int keysPerWriter;

  @BeforeAll
  static void connect() {
    server = ProtocolServer.shared();
    keysPerWriter = Math.min(MAX_KEYS_PER_WRITER, (server.config().maxEntries() - 1) / WRITERS);
    assumeTrue(keysPerWriter >= 1, "the entry cap leaves no room for " + WRITERS + " writers");
  }

  /** One write the server acknowledged with {@code 200}. */
  record Acknowledged(String key, String content, long version) {}

  @Test
  void writersChainingIfMatchAndRetryingOnConflictLoseNoAcknowledgedWrite() throws Exception {
    String repo = server.newRepository();
    server.write(repo, Map.of("seed.md", "seed"));
    TeamMemoryClient client = server.client(Caller.WRITER);

    List<List<Acknowledged>> perWriter =
        runConcurrently(writer -> writeOwnKeysChained(client, repo, writer));

    assertEveryAcknowledgedWriteIsThere(repo, perWriter);
  }

  @Test
  void unconditionalConcurrentWritersLoseNothing() throws Exception {
    String repo = server.newRepository();
    server.write(repo, Map.of("seed.md", "seed"));
    TeamMemoryClient client = server.client(Caller.WRITER);

    List<List<Acknowledged>> perWriter =
        runConcurrently(
            writer -> {
              List<Acknowledged> acknowledged = new ArrayList<>();
              for (int index = 0; index < keysPerWriter; index++) {
                String key = keyOf(writer, index);
                String content = contentOf(writer, index);
                Response<PutResponse> response =
                    client.put(repo, Map.of(key, content), Optional.empty());
                if (!(response instanceof Response.Ok<PutResponse> ok)) {
                  throw new AssertionError(
                      "an unconditional PUT of " + key + " answered " + response);
                }
                acknowledged.add(new Acknowledged(key, content, ok.body().version()));
              }
              return acknowledged;
            });

    assertEveryAcknowledgedWriteIsThere(repo, perWriter);
  }

  private interface Writer {
    List<Acknowledged> write(int writer) throws Exception;
  }

  /** Starts all writers at once and waits for every one of them, with a deadline. */
  private static List<List<Acknowledged>> runConcurrently(Writer writer) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<Acknowledged>>> futures = new ArrayList<>();
      for (int index = 0; index < WRITERS; index++) {
        int number = index;
        Callable<List<Acknowledged>> task =
            () -> {
              start.await();
              return writer.write(number);
            };
        futures.add(pool.submit(task));
      }
      start.countDown();
      List<List<Acknowledged>> results = new ArrayList<>();
      for (Future<List<Acknowledged>> future : futures) {
        results.add(future.get(5, TimeUnit.MINUTES));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * What a syncing client does: PUT with {@code If-Match} the last checksum it knows; on {@code
   * 412} probe the hashes view and retry.
   */
  private static List<Acknowledged> writeOwnKeysChained(
      TeamMemoryClient client, String repo, int writer) {
    List<Acknowledged> acknowledged = new ArrayList<>();
    String known = probe(client, repo);
    for (int index = 0; index < keysPerWriter; index++) {
      String key = keyOf(writer, index);
      String content = contentOf(writer, index);
      boolean done = false;
      for (int attempt = 0; attempt < MAX_ATTEMPTS_PER_KEY && !done; attempt++) {
        Response<PutResponse> response = client.put(repo, Map.of(key, content), Optional.of(known));
        switch (response) {
          case Response.Ok<PutResponse> ok -> {
            acknowledged.add(new Acknowledged(key, content, ok.body().version()));
            known = ok.body().checksum();
            done = true;
          }
          case Response.Conflict<PutResponse> conflict -> known = probe(client, repo);
          default -> throw new AssertionError("a PUT of " + key + " answered " + response);
        }
      }
      if (!done) {
        throw new AssertionError(
            key + " was not acknowledged in " + MAX_ATTEMPTS_PER_KEY + " attempts");
      }
    }
    return acknowledged;
  }

  private static String probe(TeamMemoryClient client, String repo) {
    Response<HashesView> response = client.fetchHashes(repo);
    if (response instanceof Response.Ok<HashesView> ok) {
      return ok.body().checksum();
    }
    throw new AssertionError("the hashes probe answered " + response);
  }

  private static void assertEveryAcknowledgedWriteIsThere(
      String repo, List<List<Acknowledged>> perWriter) {
    List<Long> versions = new ArrayList<>();
    for (List<Acknowledged> writes : perWriter) {
      assertThat(writes).hasSize(keysPerWriter);
      assertThat(writes)
          .extracting(Acknowledged::version)
          .as("one writer's acknowledged versions increase")
          .isSorted()
          .doesNotHaveDuplicates();
      writes.forEach(write -> versions.add(write.version()));
    }
    int total = WRITERS * keysPerWriter;
    // The seed was version 1; each acknowledged write changed something, so took the next one.
    assertThat(versions)
        .as("every acknowledged write has its own version")
        .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(2, total + 1).boxed().toList());

    JsonNode body = server.get(repo).expectStatus(200).json();
    Map<String, String> entries = Reply.strings(body.path("content").path("entries"));
    for (List<Acknowledged> writes : perWriter) {
      for (Acknowledged write : writes) {
        assertThat(entries).containsEntry(write.key(), write.content());
      }
    }
    assertThat(entries).hasSize(total + 1);
    assertThat(body.path("version").longValue()).isEqualTo(total + 1);
    assertThat(body.path("checksum").textValue())
        .isEqualTo(WireAssertions.repositoryChecksumOf(entries));
  }

  private static String keyOf(int writer, int index) {
    return "writer-%d/key-%d.md".formatted(writer, index);
  }

  private static String contentOf(int writer, int index) {
    return "written by writer " + writer + ", write " + index + "\n";
  }
}
