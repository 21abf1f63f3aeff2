package dev.teammemory.daemon.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.compact.Compaction;
import dev.teammemory.daemon.compact.CompactionLimits;
import dev.teammemory.daemon.compact.CompactionOutcome;
import dev.teammemory.daemon.compact.CompactionRequest;
import dev.teammemory.daemon.extract.Extraction;
import dev.teammemory.daemon.extract.ExtractionRequest;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryHeader;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.memory.MemoryScan;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.notes.SessionNotes;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Scores the offline engine on the judgment set in {@code src/test/resources/judgment/} and prints
 * the figures recorded in {@code docs/benchmarks.md} ("Memory engine: offline judgment"):
 *
 * <ul>
 *   <li>the offline extractor's precision, recall and scope agreement, running extraction after
 *       every finished turn of each session, as the Stop hook does;
 *   <li>the coverage of the offline compaction summary (level 2, no session notes) of each whole
 *       session;
 *   <li>the coverage of the offline session notes of each whole session, for comparison.
 * </ul>
 *
 * The scoring rule is the one in the judgment set's {@code README.md}. Run from the repository
 * root:
 *
 * <pre>
 * ./mvnw -B -ntp -q -pl client-daemon -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
 * (. .mvn/find-jdk.sh &amp;&amp; cd client-daemon &amp;&amp; "$JAVA_HOME/bin/java" \
 *   -cp target/test-classes:target/classes:"$(cat target/cp.txt)" \
 *   dev.teammemory.daemon.bench.JudgmentBench [--verbose] [judgment folder])
 * </pre>
 */
public final class JudgmentBench {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-03-02T12:30:00Z"), ZoneOffset.UTC);

  private JudgmentBench() {}

  /** One expected memory. */
  record Expected(String type, String scope, List<String> terms) {}

  /** One memory the extractor saved. */
  record Saved(String file, String type, String scope, String text) {}

  public static void main(String[] arguments) throws IOException {
    boolean verbose = List.of(arguments).contains("--verbose");
    Path folder =
        List.of(arguments).stream()
            .filter(argument -> !argument.startsWith("--"))
            .findFirst()
            .map(Path::of)
            .orElse(Path.of("src/test/resources/judgment"));
    JsonNode cases = JSON.readTree(folder.resolve("cases.json").toFile());
    Path root = Files.createTempDirectory("tmem-judgment-");

    int expectedTotal = 0;
    int matchedExpected = 0;
    int savedTotal = 0;
    int savedMatching = 0;
    int scopeRight = 0;
    int factsTotal = 0;
    int summaryFacts = 0;
    int notesFacts = 0;
    int savedFromNothingCases = 0;
    int index = 0;
    for (JsonNode judgment : cases) {
      String name = judgment.path("transcript").asText();
      Path workspace = Files.createDirectories(root.resolve(String.format("%02d", index++)));
      List<Expected> expected = new ArrayList<>();
      for (JsonNode memory : judgment.path("memories")) {
        List<String> terms = new ArrayList<>();
        memory.path("mustContain").forEach(term -> terms.add(term.asText()));
        expected.add(
            new Expected(memory.path("type").asText(), memory.path("scope").asText(), terms));
      }
      List<Saved> saved = extract(folder.resolve(name), workspace);

      boolean[] found = new boolean[expected.size()];
      List<String> unmatched = new ArrayList<>();
      for (Saved memory : saved) {
        boolean matches = false;
        for (int e = 0; e < expected.size(); e++) {
          Expected want = expected.get(e);
          if (want.type().equals(memory.type()) && containsAll(memory.text(), want.terms())) {
            matches = true;
            if (!found[e]) {
              found[e] = true;
              scopeRight += want.scope().equals(memory.scope()) ? 1 : 0;
            }
          }
        }
        savedMatching += matches ? 1 : 0;
        if (!matches) {
          unmatched.add(memory.type() + "/" + memory.scope() + " " + memory.file());
        }
      }
      savedTotal += saved.size();
      if (expected.isEmpty()) {
        savedFromNothingCases += saved.size();
      }
      expectedTotal += expected.size();
      List<String> missed = new ArrayList<>();
      for (int e = 0; e < expected.size(); e++) {
        if (found[e]) {
          matchedExpected++;
        } else {
          missed.add(expected.get(e).type() + " " + expected.get(e).terms());
        }
      }

      List<List<String>> facts = new ArrayList<>();
      for (JsonNode fact : judgment.path("summaryFacts")) {
        List<String> terms = new ArrayList<>();
        fact.forEach(term -> terms.add(term.asText()));
        facts.add(terms);
      }
      String summary = summary(folder.resolve(name), workspace);
      String notes = notes(folder.resolve(name), workspace);
      List<String> summaryMissed = new ArrayList<>();
      for (List<String> fact : facts) {
        factsTotal++;
        if (containsAll(summary, fact)) {
          summaryFacts++;
        } else {
          summaryMissed.add(fact.toString());
        }
        notesFacts += containsAll(notes, fact) ? 1 : 0;
      }
      if (verbose) {
        System.out.println(
            name
                + ": saved "
                + saved.size()
                + ", expected "
                + expected.size()
                + (missed.isEmpty() ? "" : "; missed " + missed)
                + (unmatched.isEmpty() ? "" : "; wrong " + unmatched)
                + (summaryMissed.isEmpty() ? "" : "; summary lacks " + summaryMissed));
        for (Saved memory : saved) {
          System.out.println(
              "    "
                  + memory.type()
                  + "/"
                  + memory.scope()
                  + " "
                  + memory.file()
                  + ": "
                  + memory.text().replaceAll("\\s+", " "));
        }
      }
    }

    System.out.println(
        "judgment set: "
            + cases.size()
            + " transcripts, "
            + expectedTotal
            + " expected memories, "
            + factsTotal
            + " summary facts");
    System.out.println(
        String.format(
            Locale.ROOT,
            "extractor: recall %.2f (%d of %d), precision %.2f (%d of %d saved),"
                + " %d saved from nothing-cases, scope right %d of %d matched",
            ratio(matchedExpected, expectedTotal),
            matchedExpected,
            expectedTotal,
            ratio(savedMatching, savedTotal),
            savedMatching,
            savedTotal,
            savedFromNothingCases,
            scopeRight,
            matchedExpected));
    System.out.println(
        String.format(
            Locale.ROOT,
            "summary (offline compaction, level 2): coverage %.2f (%d of %d facts)",
            ratio(summaryFacts, factsTotal),
            summaryFacts,
            factsTotal));
    System.out.println(
        String.format(
            Locale.ROOT,
            "session notes (offline): coverage %.2f (%d of %d facts)",
            ratio(notesFacts, factsTotal),
            notesFacts,
            factsTotal));
  }

  /**
   * Replays the session into a transcript file turn by turn and runs extraction after each finished
   * turn, as the Stop hook does; returns the memories in the folder at the end.
   */
  private static List<Saved> extract(Path source, Path workspace) throws IOException {
    Path memory = Files.createDirectories(workspace.resolve("memory"));
    Files.createDirectories(memory.resolve("team"));
    Path project = Files.createDirectories(workspace.resolve("project"));
    Environment environment =
        new Environment(
            Map.of(
                "CLAUDE_CONFIG_DIR",
                workspace.resolve("claude").toString(),
                "XDG_STATE_HOME",
                workspace.resolve("state").toString(),
                MemoryLocation.OVERRIDE_VARIABLE,
                memory.toString()),
            workspace,
            project);
    MemoryLocation location = MemoryLocation.resolve(environment);
    Extraction extraction =
        new Extraction(
            ClaudeLayout.of(environment),
            new OfflineLanguageModel("judgment benchmark"),
            CLOCK,
            SecretGuard.withDefaultRules());
    List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
    Path transcript = workspace.resolve(source.getFileName());
    for (int end : turnEnds(Transcript.read(source))) {
      Files.write(transcript, lines.subList(0, end), StandardCharsets.UTF_8);
      extraction.afterTurn(new ExtractionRequest(transcript, location, false, project));
    }
    List<Saved> saved = new ArrayList<>();
    for (MemoryHeader header : MemoryScan.scan(memory)) {
      String text = Files.readString(header.file(), StandardCharsets.UTF_8);
      saved.add(
          new Saved(
              header.filename(),
              header.type().map(type -> type.wireName()).orElse("?"),
              header.filename().startsWith("team/") ? "team" : "private",
              text));
    }
    return saved;
  }

  /**
   * The line numbers where the agent's turns end: an assistant message without a tool call that the
   * next message does not continue (a tool result, another fragment of the same response).
   */
  private static List<Integer> turnEnds(Transcript transcript) {
    List<TranscriptEntry> messages =
        transcript.entries().stream().filter(TranscriptEntry::isMessage).toList();
    List<Integer> ends = new ArrayList<>();
    for (int i = 0; i < messages.size(); i++) {
      TranscriptEntry message = messages.get(i);
      if (!message.isAssistant() || message.hasToolUse()) {
        continue;
      }
      boolean last = i == messages.size() - 1;
      if (last || (messages.get(i + 1).isUser() && messages.get(i + 1).toolResults().isEmpty())) {
        ends.add(message.lineNumber());
      }
    }
    return ends;
  }

  /** The summary an offline compaction of the whole session writes, without session notes. */
  private static String summary(Path source, Path workspace) throws IOException {
    Environment environment = environment(workspace);
    Path transcript = workspace.resolve("compact").resolve(source.getFileName());
    Files.createDirectories(transcript.getParent());
    Files.copy(source, transcript);
    CompactionOutcome outcome =
        new Compaction(
                ClaudeLayout.of(environment), new OfflineLanguageModel("judgment benchmark"), CLOCK)
            .compact(
                new CompactionRequest(
                    transcript,
                    Optional.of(workspace.resolve("no-notes.md")),
                    Optional.empty(),
                    CompactionLimits.DEFAULTS,
                    false));
    if (!(outcome instanceof CompactionOutcome.Compacted compacted)) {
      return "";
    }
    for (String line : compacted.lines()) {
      JsonNode entry = JSON.readTree(line);
      if (entry.path("isCompactSummary").asBoolean(false)) {
        return entry.path("message").path("content").asText();
      }
    }
    return "";
  }

  /** The offline session notes of the whole session. */
  private static String notes(Path source, Path workspace) throws IOException {
    Environment environment = environment(workspace);
    Path notes = workspace.resolve("notes.md");
    new SessionNotes(
            ClaudeLayout.of(environment), new OfflineLanguageModel("judgment benchmark"), CLOCK)
        .update(source, notes, true);
    return Files.exists(notes) ? Files.readString(notes, StandardCharsets.UTF_8) : "";
  }

  private static Environment environment(Path workspace) {
    return new Environment(
        Map.of(
            "CLAUDE_CONFIG_DIR",
            workspace.resolve("claude").toString(),
            "XDG_STATE_HOME",
            workspace.resolve("state").toString()),
        workspace,
        workspace);
  }

  /** Whether the text contains every term, by the judgment set's matching rule. */
  static boolean containsAll(String text, List<String> terms) {
    return terms.stream().allMatch(term -> term(term).matcher(text).find());
  }

  /**
   * A term ignores case, a space in it matches any run of whitespace, and the characters around it
   * must not be an ASCII letter, digit or underscore.
   */
  static Pattern term(String term) {
    String body =
        List.of(term.strip().split("\\s+")).stream()
            .map(Pattern::quote)
            .collect(Collectors.joining("\\s+"));
    return Pattern.compile(
        "(?<![A-Za-z0-9_])" + body + "(?![A-Za-z0-9_])", Pattern.CASE_INSENSITIVE);
  }

  private static double ratio(int part, int whole) {
    return whole == 0 ? 0 : (double) part / whole;
  }
}
