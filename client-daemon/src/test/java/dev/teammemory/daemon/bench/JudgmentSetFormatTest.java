package dev.teammemory.daemon.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Checks that each judgment set keeps the rules its {@code README.md} states, so that a score on it
 * means what the README says: the transcripts are well-formed Claude Code transcripts, every case
 * names one transcript and back, and every expected term can be found where the rules put it (a
 * memory term in what the user said, a summary term somewhere in the transcript).
 *
 * <p>Each test collects every problem in the set before failing, so one run lists them all.
 */
class JudgmentSetFormatTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> ENTRY_TYPES =
      Set.of("user", "assistant", "system", "summary", "file-history-snapshot");
  private static final List<String> CONVERSATION_FIELDS =
      List.of("uuid", "parentUuid", "sessionId", "cwd", "gitBranch", "version", "timestamp");
  private static final Set<String> MEMORY_TYPES =
      Set.of("user", "feedback", "project", "reference");
  private static final String REJECTION_REASON = "To tell you how to proceed, the user said:";

  @ParameterizedTest
  @ValueSource(strings = {"judgment", "judgment-holdout"})
  void everyLineIsAnEntryWithTheFieldsItsTypeNeeds(String set) {
    List<String> problems = new ArrayList<>();
    for (Path transcript : transcripts(set)) {
      List<JsonNode> entries = parse(transcript, problems);
      for (int line = 1; line <= entries.size(); line++) {
        checkEntry(transcript.getFileName() + ":" + line, entries.get(line - 1), problems);
      }
    }
    assertThat(problems).as(set).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"judgment", "judgment-holdout"})
  void parentLinksFormOneChainInFileOrderAndToolResultsAnswerEarlierCalls(String set) {
    List<String> problems = new ArrayList<>();
    for (Path transcript : transcripts(set)) {
      String name = transcript.getFileName().toString();
      Set<String> seen = new HashSet<>();
      Set<String> calls = new HashSet<>();
      Set<String> answered = new HashSet<>();
      String previous = null;
      int line = 0;
      for (JsonNode entry : parse(transcript, problems)) {
        line++;
        String where = name + ":" + line;
        if (entry.hasNonNull("uuid")) {
          String uuid = entry.get("uuid").asText();
          String parent =
              entry.path("parentUuid").isNull() ? null : entry.path("parentUuid").asText();
          if (!seen.add(uuid)) {
            problems.add(where + " repeats uuid " + uuid);
          }
          if (parent == null && previous != null) {
            // Only a compaction boundary may start a new chain, and it points back to the old one.
            boolean boundary = "compact_boundary".equals(entry.path("subtype").asText());
            if (!boundary || !previous.equals(entry.path("logicalParentUuid").asText())) {
              problems.add(
                  where + " starts a new chain without a compaction boundary pointing back");
            }
          } else if (parent != null && !parent.equals(previous)) {
            problems.add(where + " has parentUuid " + parent + ", not the line before it");
          }
          previous = uuid;
        }
        for (JsonNode block : contentBlocks(entry)) {
          switch (block.path("type").asText()) {
            case "tool_use" -> calls.add(block.path("id").asText());
            case "tool_result" -> {
              String id = block.path("tool_use_id").asText();
              if (!calls.contains(id)) {
                problems.add(where + " answers tool call " + id + ", which no earlier line made");
              } else if (!answered.add(id)) {
                problems.add(where + " answers tool call " + id + " a second time");
              }
            }
            default -> {}
          }
        }
      }
    }
    assertThat(problems).as(set).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"judgment", "judgment-holdout"})
  void casesAndTranscriptsMatchOneToOne(String set) {
    List<String> problems = new ArrayList<>();
    Set<String> files = new TreeSet<>();
    transcripts(set).forEach(path -> files.add(path.getFileName().toString()));
    Set<String> named = new TreeSet<>();
    for (JsonNode judgment : cases(set)) {
      String transcript = judgment.path("transcript").asText();
      if (!named.add(transcript)) {
        problems.add("two cases name " + transcript);
      }
      if (!files.contains(transcript)) {
        problems.add("case names " + transcript + ", which does not exist");
      }
    }
    files.stream()
        .filter(file -> !named.contains(file))
        .forEach(file -> problems.add(file + " has no case"));
    assertThat(problems).as(set).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"judgment", "judgment-holdout"})
  void casesFollowTheRulesForExpectations(String set) {
    List<String> problems = new ArrayList<>();
    for (JsonNode judgment : cases(set)) {
      String name = judgment.path("transcript").asText();
      JsonNode memories = judgment.path("memories");
      if (!memories.isArray()) {
        problems.add(name + ": memories is not a list");
        continue;
      }
      if (name.startsWith("nothing-") != memories.isEmpty()) {
        problems.add(name + ": only nothing-* cases expect no memory, and they expect none");
      }
      for (JsonNode memory : memories) {
        String type = memory.path("type").asText();
        String scope = memory.path("scope").asText();
        if (!MEMORY_TYPES.contains(type)) {
          problems.add(name + ": unknown memory type '" + type + "'");
        }
        if (!scope.equals("private") && !scope.equals("team")) {
          problems.add(name + ": unknown scope '" + scope + "'");
        }
        if (type.equals("user") && !scope.equals("private")) {
          problems.add(name + ": a user memory is always private");
        }
        if ((type.equals("project") || type.equals("reference")) && !scope.equals("team")) {
          problems.add(name + ": a " + type + " memory is team");
        }
        if (terms(memory.path("mustContain")).size() != 2) {
          problems.add(name + ": a memory has 2 terms, not " + memory.path("mustContain"));
        }
      }
      JsonNode facts = judgment.path("summaryFacts");
      if (!facts.isArray() || facts.isEmpty()) {
        problems.add(name + ": no summary facts");
      }
      for (JsonNode fact : facts) {
        int size = terms(fact).size();
        if (size < 1 || size > 3) {
          problems.add(name + ": a summary fact has 1 to 3 terms, not " + fact);
        }
      }
      if (judgment.path("why").asText().isBlank()) {
        problems.add(name + ": no why");
      }
    }
    assertThat(problems).as(set).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"judgment", "judgment-holdout"})
  void memoryTermsAreInWhatTheUserSaidAndSummaryTermsInTheTranscript(String set) {
    List<String> problems = new ArrayList<>();
    Path folder = folder(set);
    for (JsonNode judgment : cases(set)) {
      String name = judgment.path("transcript").asText();
      Path transcript = folder.resolve(name);
      if (!Files.isRegularFile(transcript)) {
        continue; // reported by casesAndTranscriptsMatchOneToOne
      }
      List<JsonNode> entries = parse(transcript, problems);
      String said = whatTheUserSaid(entries);
      String everything = allText(entries);
      for (JsonNode memory : judgment.path("memories")) {
        for (String term : terms(memory.path("mustContain"))) {
          if (!JudgmentBench.term(term).matcher(said).find()) {
            problems.add(name + ": memory term '" + term + "' is not in what the user said");
          }
        }
      }
      for (JsonNode fact : judgment.path("summaryFacts")) {
        for (String term : terms(fact)) {
          if (!JudgmentBench.term(term).matcher(everything).find()) {
            problems.add(name + ": summary term '" + term + "' is not in the transcript");
          }
        }
      }
    }
    assertThat(problems).as(set).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"judgment", "judgment-holdout"})
  void setHasAtLeastThirtyCasesOfWhichTenExpectNothing(String set) {
    List<JsonNode> cases = cases(set);
    long nothing = cases.stream().filter(judgment -> judgment.path("memories").isEmpty()).count();

    assertThat(cases).as(set + " cases").hasSizeGreaterThanOrEqualTo(30);
    assertThat(nothing).as(set + " cases that expect nothing").isGreaterThanOrEqualTo(10);
  }

  private static void checkEntry(String where, JsonNode entry, List<String> problems) {
    String type = entry.path("type").asText();
    if (!ENTRY_TYPES.contains(type)) {
      problems.add(where + ": unknown entry type '" + type + "'");
      return;
    }
    switch (type) {
      case "summary" -> {
        if (!entry.hasNonNull("summary") || !entry.hasNonNull("leafUuid")) {
          problems.add(where + ": a summary needs summary and leafUuid");
        }
      }
      case "file-history-snapshot" -> {
        if (!entry.hasNonNull("messageId")) {
          problems.add(where + ": a file-history-snapshot needs messageId");
        }
      }
      default -> {
        for (String field : CONVERSATION_FIELDS) {
          if (!entry.has(field) || (!field.equals("parentUuid") && entry.get(field).isNull())) {
            problems.add(where + ": missing " + field);
          }
        }
        if (!type.equals("system")) {
          checkMessage(where, type, entry.path("message"), problems);
        }
      }
    }
  }

  private static void checkMessage(
      String where, String type, JsonNode message, List<String> problems) {
    if (!type.equals(message.path("role").asText())) {
      problems.add(where + ": message.role is not " + type);
    }
    JsonNode content = message.path("content");
    if (type.equals("user") && content.isTextual()) {
      return;
    }
    if (!content.isArray() || content.isEmpty()) {
      problems.add(where + ": content is neither a prompt string nor a list of blocks");
      return;
    }
    if (type.equals("assistant")) {
      // The agent writes one line per content block; the lines of a response share message.id.
      if (content.size() != 1) {
        problems.add(where + ": an assistant line holds " + content.size() + " blocks, not 1");
      }
      if (!message.hasNonNull("id")) {
        problems.add(where + ": an assistant line needs message.id");
      }
    }
    for (JsonNode block : content) {
      List<String> needs =
          switch (block.path("type").asText()) {
            case "text" -> List.of("text");
            case "thinking" -> List.of("thinking");
            case "tool_use" -> List.of("id", "name", "input");
            case "tool_result" -> List.of("tool_use_id", "content");
            case "image" -> List.of("source");
            default -> null;
          };
      if (needs == null) {
        problems.add(where + ": unknown block type '" + block.path("type").asText() + "'");
      } else {
        needs.stream()
            .filter(field -> !block.hasNonNull(field))
            .forEach(field -> problems.add(where + ": a " + block.get("type") + " needs " + field));
      }
    }
  }

  /**
   * Typed prompts (not the compaction summary, local-command wrappers or the agent's interruption
   * markers) and the reason a user typed into a rejected tool call.
   */
  private static String whatTheUserSaid(List<JsonNode> entries) {
    StringBuilder said = new StringBuilder();
    for (JsonNode entry : entries) {
      if (!entry.path("type").asText().equals("user")
          || entry.path("isMeta").asBoolean()
          || entry.path("isCompactSummary").asBoolean()) {
        continue;
      }
      JsonNode content = entry.path("message").path("content");
      if (content.isTextual()) {
        String prompt = content.asText();
        if (!prompt.startsWith("<command-") && !prompt.startsWith("<local-command-")) {
          said.append(prompt).append('\n');
        }
        continue;
      }
      for (JsonNode block : content) {
        String type = block.path("type").asText();
        if (type.equals("text")
            && !block.path("text").asText().startsWith("[Request interrupted")) {
          said.append(block.path("text").asText()).append('\n');
        } else if (type.equals("tool_result")) {
          String result = allText(List.of(block.path("content")));
          int reason = result.indexOf(REJECTION_REASON);
          if (reason >= 0) {
            said.append(result.substring(reason + REJECTION_REASON.length())).append('\n');
          }
        }
      }
    }
    return said.toString();
  }

  /** Every string value in the entries, one per line, so JSON escapes never glue words together. */
  private static String allText(List<JsonNode> nodes) {
    StringBuilder text = new StringBuilder();
    List<JsonNode> pending = new ArrayList<>(nodes);
    while (!pending.isEmpty()) {
      JsonNode node = pending.removeLast();
      if (node.isTextual()) {
        text.append(node.asText()).append('\n');
      } else {
        node.elements().forEachRemaining(pending::add);
      }
    }
    return text.toString();
  }

  private static List<JsonNode> contentBlocks(JsonNode entry) {
    JsonNode content = entry.path("message").path("content");
    List<JsonNode> blocks = new ArrayList<>();
    if (content.isArray()) {
      content.forEach(blocks::add);
    }
    return blocks;
  }

  private static List<String> terms(JsonNode list) {
    List<String> terms = new ArrayList<>();
    if (list.isArray()) {
      list.forEach(term -> terms.add(term.asText()));
    }
    return terms;
  }

  private static List<JsonNode> parse(Path transcript, List<String> problems) {
    List<JsonNode> entries = new ArrayList<>();
    List<String> lines = readLines(transcript);
    for (int line = 1; line <= lines.size(); line++) {
      try {
        entries.add(JSON.readTree(lines.get(line - 1)));
      } catch (JsonProcessingException e) {
        problems.add(transcript.getFileName() + ":" + line + " is not JSON");
        entries.add(JSON.missingNode());
      }
    }
    return entries;
  }

  private static List<JsonNode> cases(String set) {
    try {
      List<JsonNode> cases = new ArrayList<>();
      JSON.readTree(folder(set).resolve("cases.json").toFile()).forEach(cases::add);
      return cases;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> transcripts(String set) {
    try (Stream<Path> files = Files.list(folder(set))) {
      return files.filter(path -> path.toString().endsWith(".jsonl")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> readLines(Path path) {
    try {
      return Files.readAllLines(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path folder(String set) {
    try {
      return Path.of(
          Objects.requireNonNull(JudgmentSetFormatTest.class.getResource("/" + set), set).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
