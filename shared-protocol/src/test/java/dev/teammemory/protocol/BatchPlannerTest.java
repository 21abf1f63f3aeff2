package dev.teammemory.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BatchPlannerTest {

  /** Rows of json-stringify-lengths.json, produced by Node's JSON.stringify (see the .mjs). */
  static Stream<Arguments> lengthsMeasuredWithJavaScript() throws IOException {
    try (InputStream data =
        BatchPlannerTest.class.getResourceAsStream("json-stringify-lengths.json")) {
      JsonNode rows = ProtocolJson.mapper().readTree(data);
      List<Arguments> arguments = new ArrayList<>();
      for (JsonNode row : rows) {
        arguments.add(
            Arguments.of(
                row.get("text").textValue(),
                row.get("stringified").textValue(),
                row.get("stringifiedLength").longValue()));
      }
      return arguments.stream();
    }
  }

  @ParameterizedTest
  @MethodSource("lengthsMeasuredWithJavaScript")
  void encodingAndItsLengthEqualJavaScriptsJsonStringify(
      String text, String stringified, long stringifiedLength) {
    StringBuilder encoded = new StringBuilder();
    BatchPlanner.appendJson(encoded, text);

    assertThat(encoded.toString()).isEqualTo(stringified);
    assertThat(encoded.toString().getBytes(UTF_8)).hasSize((int) stringifiedLength);
    assertThat(BatchPlanner.encodedLength(text)).isEqualTo(stringifiedLength);
  }

  @Test
  void entryBytesAreBothEncodedLengthsPlusTwo() {
    // "MEMORY.md" encodes to 11 bytes, "# Team memory\n" to 17.
    assertThat(BatchPlanner.entryBytes("MEMORY.md", "# Team memory\n")).isEqualTo(11 + 17 + 2);
    assertThat(BatchPlanner.entryBytes("k", "")).isEqualTo(3 + 2 + 2);
  }

  @Test
  void entryBytesCountEscapesAndMultiByteCharacters() {
    // é is 2 UTF-8 bytes, a quote is escaped to 2, a NUL to 6 (backslash, u, four digits), an
    // emoji is 4 bytes.
    assertThat(BatchPlanner.entryBytes("caf\u00e9.md", "\"\u0000\uD83D\uDE00"))
        .isEqualTo((2 + 8) + (2 + 2 + 6 + 4) + 2);
  }

  @Test
  void emptyDeltaPlansNoBatches() {
    assertThat(BatchPlanner.plan(Map.of(), BatchPlanner.MAX_BATCH_BYTES)).isEmpty();
  }

  @Test
  void smallDeltaTravelsInOneBatchInKeyOrder() {
    Map<String, String> delta = new HashMap<>();
    delta.put("b.md", "2");
    delta.put("a.md", "1");
    delta.put("C.md", "3");

    List<Map<String, String>> batches = BatchPlanner.plan(delta, BatchPlanner.MAX_BATCH_BYTES);

    assertThat(batches).hasSize(1);
    assertThat(batches.get(0))
        .containsExactly(Map.entry("C.md", "3"), Map.entry("a.md", "1"), Map.entry("b.md", "2"));
  }

  @Test
  void keysAreSortedByUtf16CodeUnitsAsJavaScriptSorts() {
    // U+FF21 sorts after U+1F600 in UTF-16 code units (FF21 > D83D) though not in UTF-8 bytes.
    Map<String, String> delta = Map.of("\uFF21.md", "x", "\uD83D\uDE00.md", "y", "z.md", "z");

    List<Map<String, String>> batches = BatchPlanner.plan(delta, BatchPlanner.MAX_BATCH_BYTES);

    assertThat(batches.get(0).keySet()).containsExactly("z.md", "\uD83D\uDE00.md", "\uFF21.md");
  }

  @Test
  void anEntryThatFillsTheBatchExactlyToTheLimitStaysInIt() {
    // Two entries of 50 bytes each: 14 + 50 + 50 = 114.
    Map<String, String> delta = Map.of("a", fill(50 - 3 - 2 - 2), "b", fill(50 - 3 - 2 - 2));
    assertThat(BatchPlanner.entryBytes("a", delta.get("a"))).isEqualTo(50);

    assertThat(BatchPlanner.plan(delta, 114)).hasSize(1);
    assertThat(BatchPlanner.plan(delta, 113))
        .containsExactly(Map.of("a", delta.get("a")), Map.of("b", delta.get("b")));
  }

  @Test
  void batchesArePackedGreedilyInKeyOrder() {
    // Entries of 40, 40, 10 and 40 bytes with room for 100 after the 14-byte envelope.
    Map<String, String> delta = new TreeMap<>();
    delta.put("a", fill(40 - 7));
    delta.put("b", fill(40 - 7));
    delta.put("c", fill(10 - 7));
    delta.put("d", fill(40 - 7));

    List<Map<String, String>> batches = BatchPlanner.plan(delta, 114);

    // a+b+c = 90 fits; d would make 130; d starts the second batch. Greedy, not best-fit.
    assertThat(keysOf(batches)).containsExactly(List.of("a", "b", "c"), List.of("d"));
  }

  @Test
  void anOversizedEntryTravelsAloneBetweenItsNeighbours() {
    Map<String, String> delta = new TreeMap<>();
    delta.put("a.md", "small");
    delta.put("b.md", fill(BatchPlanner.MAX_BATCH_BYTES));
    delta.put("c.md", "small");

    List<Map<String, String>> batches = BatchPlanner.plan(delta, BatchPlanner.MAX_BATCH_BYTES);

    assertThat(keysOf(batches)).containsExactly(List.of("a.md"), List.of("b.md"), List.of("c.md"));
  }

  @Test
  void escapingCountsAgainstTheLimitNotTheRawLength() {
    // 60,000 quotes are 60,000 characters but 120,002 bytes once encoded: two cannot share.
    String quotes = "\"".repeat(60_000);
    Map<String, String> delta = Map.of("a.md", quotes, "b.md", quotes);

    assertThat(BatchPlanner.plan(delta, BatchPlanner.MAX_BATCH_BYTES)).hasSize(2);
    assertThat(
            BatchPlanner.plan(
                Map.of("a.md", "x".repeat(60_000), "b.md", "x".repeat(60_000)),
                BatchPlanner.MAX_BATCH_BYTES))
        .hasSize(1);
  }

  @Test
  void nonAsciiContentCountsUtf8Bytes() {
    // 70,000 × é = 140,002 bytes encoded: one fits under 200,000, two do not.
    String accents = "\u00e9".repeat(70_000);

    assertThat(BatchPlanner.plan(Map.of("a.md", accents, "b.md", accents), 200_000)).hasSize(2);
  }

  @Test
  void everyBatchButALoneOversizedOneStaysWithinTheLimit() {
    Map<String, String> delta = new LinkedHashMap<>();
    for (int index = 0; index < 500; index++) {
      delta.put("notes/%03d.md".formatted(index), "line \u00e9 \"quoted\"\n".repeat(index * 7));
    }

    List<Map<String, String>> batches = BatchPlanner.plan(delta, 20_000);

    Map<String, String> reassembled = new HashMap<>();
    for (Map<String, String> batch : batches) {
      long bytes = BatchPlanner.EMPTY_BODY_BYTES;
      for (Map.Entry<String, String> entry : batch.entrySet()) {
        bytes += BatchPlanner.entryBytes(entry.getKey(), entry.getValue());
      }
      assertThat(batch.size() == 1 || bytes <= 20_000).as("batch of %d bytes", bytes).isTrue();
      reassembled.putAll(batch);
    }
    assertThat(reassembled).isEqualTo(delta);
  }

  @Test
  void theBodyOfABatchIsAsLongAsPlannedLessTheLastComma() throws IOException {
    Map<String, String> batch =
        Map.of("k\u00e9y.md", "v\u0001\"\\\n\u2028\uD83D\uDE00 lone \uD800 end", "b", "");
    long counted = BatchPlanner.EMPTY_BODY_BYTES;
    for (Map.Entry<String, String> entry : batch.entrySet()) {
      counted += BatchPlanner.entryBytes(entry.getKey(), entry.getValue());
    }

    byte[] body = BatchPlanner.body(batch);

    assertThat(body).hasSize((int) counted - 1);
    assertThat(ProtocolJson.mapper().readValue(body, PutRequest.class).entries()).isEqualTo(batch);
  }

  @Test
  void theBodyWritesEveryStringAsJavaScriptDoes() {
    byte[] body = BatchPlanner.body(Map.of("b.md", "\uD83D\uDE00\u0007", "a.md", "\"x\"\t"));

    assertThat(new String(body, UTF_8))
        .isEqualTo("{\"entries\":{\"a.md\":\"\\\"x\\\"\\t\",\"b.md\":\"\uD83D\uDE00\\u0007\"}}");
    assertThat(BatchPlanner.body(Map.of())).asString(UTF_8).isEqualTo("{\"entries\":{}}");
  }

  @Test
  void batchesCannotBeModified() {
    List<Map<String, String>> batches = BatchPlanner.plan(Map.of("a", "1"), 100);

    assertThatThrownBy(() -> batches.get(0).put("b", "2"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void rejectsALimitBelowTheEmptyBodyAndNullValues() {
    assertThatThrownBy(() -> BatchPlanner.plan(Map.of(), 13))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxBatchBytes is smaller than an empty body (14): 13");
    Map<String, String> withNull = new HashMap<>();
    withNull.put("a.md", null);
    assertThatThrownBy(() -> BatchPlanner.plan(withNull, 100))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("delta has a null value for key a.md");
  }

  private static List<List<String>> keysOf(List<Map<String, String>> batches) {
    return batches.stream().map(batch -> List.copyOf(batch.keySet())).toList();
  }

  private static String fill(int length) {
    return "x".repeat(length);
  }
}
