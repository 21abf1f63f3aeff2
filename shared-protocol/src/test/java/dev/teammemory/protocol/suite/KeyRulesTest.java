package dev.teammemory.protocol.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.ErrorCodes;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every attack PROTOCOL.md "Keys" names is a {@code 400 invalid_key} that names the key and writes
 * nothing; ordinary keys, including ones that merely look encoded, are stored literally.
 */
class KeyRulesTest {

  private static ProtocolServer server;

  @BeforeAll
  static void connect() {
    server = ProtocolServer.shared();
  }

  static Stream<Named<String>> rejectedKeys() {
    return Stream.of(
        named("empty", ""),
        named("513 UTF-8 bytes", "a".repeat(509) + ".md!"),
        named("513 UTF-8 bytes in 2-byte characters", "\u00e9".repeat(256) + "x"),
        named("absolute path", "/etc/passwd"),
        named("absolute path to a note", "/notes/a.md"),
        named("backslash", "notes\\a.md"),
        named("Windows traversal", "..\\..\\escape.md"),
        named("NUL", "a\u0000b.md"),
        named("newline", "a\nb.md"),
        named("carriage return", "a\rb.md"),
        named("tab", "a\tb.md"),
        named("escape character", "a\u001bb.md"),
        named("DEL", "a\u007fb.md"),
        named("C1 control", "a\u0085b.md"),
        named("dot-dot", ".."),
        named("dot", "."),
        named("leading dot-dot segment", "../escape.md"),
        named("inner dot-dot segment", "notes/../../escape.md"),
        named("trailing dot-dot segment", "notes/.."),
        named("dot segment", "./a.md"),
        named("inner dot segment", "notes/./a.md"),
        named("empty segment", "notes//a.md"),
        named("trailing slash", "notes/"),
        named("percent-encoded dot-dot", "%2e%2e/escape.md"),
        named("upper-case percent-encoded dot-dot and slash", "%2E%2E%2Fescape.md"),
        named("percent-encoded slash", "notes%2fa.md"),
        named("dot-dot with an encoded slash", "..%2fescape.md"),
        named("percent-encoded backslash", "notes%5ca.md"),
        named("percent-encoded NUL", "a%00.md"),
        named("full-width dots", "\uFF0E\uFF0E/escape.md"),
        named("full-width solidus", "notes\uFF0Fa.md"),
        named("full-width reverse solidus", "notes\uFF3Ca.md"),
        named("two-dot leader", "\u2025/escape.md"),
        named("small full stops", "\uFE52\uFE52/escape.md"));
  }

  @ParameterizedTest
  @MethodSource("rejectedKeys")
  void aForbiddenKeyIs400InvalidKeyNamingItAndWritesNothing(String key) {
    String repo = server.newRepository();
    server.write(repo, Map.of("MEMORY.md", "# Team memory\n"));
    ProtocolServer.RepositoryState before = server.state(repo);

    Reply reply = server.put(repo, Map.of("fine.md", "fine", key, "content"));

    JsonNode error = reply.expectError(400, ErrorCodes.INVALID_KEY);
    assertThat(error.path("details").path("key").textValue()).isEqualTo(key);
    assertThat(server.state(repo)).isEqualTo(before);
  }

  @ParameterizedTest
  @MethodSource("rejectedKeys")
  void aForbiddenKeyDoesNotCreateANeverWrittenRepository(String key) {
    String repo = server.newRepository();

    server.put(repo, Map.of(key, "content")).expectError(400, ErrorCodes.INVALID_KEY);

    server.get(repo).expectError(404, ErrorCodes.NOT_FOUND);
  }

  static Stream<Named<String>> acceptedKeys() {
    return Stream.of(
        named("plain", "MEMORY.md"),
        named("nested", "testing/no-mocks.md"),
        named("deeply nested", "a/b/c/d/e.md"),
        named("dots inside a name", "a..b.md"),
        named("leading dot in a name", ".hidden.md"),
        named("malformed percent escape", "100%.md"),
        named("percent escape of nothing dangerous", "notes/%41.md"),
        named("invalid hex escape", "notes/%zz.md"),
        named("space", "with space.md"),
        named("accent", "caf\u00e9.md"),
        named("emoji", "\uD83D\uDE00.md"),
        named("full-width letters", "\uFF21\uFF22.md"),
        named("exactly 512 UTF-8 bytes", "a".repeat(509) + ".md"),
        named("exactly 512 UTF-8 bytes in 2-byte characters", "\u00e9".repeat(256)));
  }

  @ParameterizedTest
  @MethodSource("acceptedKeys")
  void anOrdinaryKeyIsStoredLiterally(String key) {
    String repo = server.newRepository();

    server.put(repo, Map.of(key, "content of " + key)).expectStatus(200);

    assertThat(
            Reply.strings(
                server.get(repo).expectStatus(200).json().path("content").path("entries")))
        .containsExactly(Map.entry(key, "content of " + key));
  }
}
