package dev.teammemory.daemon.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryIndex;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.recall.Recall;
import dev.teammemory.daemon.recall.RecalledMemory;
import dev.teammemory.daemon.recall.SurfacedMemories;
import dev.teammemory.daemon.testing.CommandRun;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every hook answer stays under the 10,000 characters Claude Code shows whole, at the caps of what
 * tmem loads: an index of 200 lines or 25,000 characters, and recall's five memories of 4 KiB.
 */
class HookBudgetTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int AGENT_LIMIT = 10_000;

  @TempDir Path home;

  private final Clock clock = Clock.fixed(Instant.parse("2026-03-02T12:30:00Z"), ZoneOffset.UTC);
  private final Map<String, String> variables = new HashMap<>();
  private Path project;
  private Path memory;

  @BeforeEach
  void machine() throws IOException {
    project = Files.createDirectories(home.resolve("app"));
    memory = Files.createDirectories(home.resolve("memory"));
    Files.createDirectories(memory.resolve("team"));
    variables.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
    variables.put("XDG_STATE_HOME", home.resolve("state").toString());
    variables.put(MemoryLocation.OVERRIDE_VARIABLE, memory.toString());
    variables.put("TMEM_OFFLINE", "1");
  }

  private byte[] input(String event, Map<String, Object> fields) throws IOException {
    Map<String, Object> input = new HashMap<>(fields);
    input.put("session_id", "session-1");
    input.put("cwd", project.toString());
    input.put("hook_event_name", event);
    return JSON.writeValueAsBytes(input);
  }

  /** What the hook printed, after checking it is within the agent's limit. */
  private String answer(CommandRun run) throws IOException {
    assertThat(run.out().strip().length()).isLessThan(AGENT_LIMIT);
    return JSON.readTree(run.out()).path("hookSpecificOutput").path("additionalContext").asText();
  }

  private String sessionStart(String... options) throws IOException {
    CommandRun run = new CommandRun();
    run.run(
        new HookCommand.SessionStart(
            new Environment(variables, home, home),
            new ByteArrayInputStream(input("SessionStart", Map.of("source", "startup"))),
            clock),
        options);
    return answer(run);
  }

  /** {@code count} index lines of exactly {@code width} characters each, numbered. */
  private static List<String> indexLines(int count, int width) {
    return IntStream.rangeClosed(1, count)
        .mapToObj(
            n -> {
              String start = "- [Topic " + n + "](topic-" + n + ".md) — ";
              return start + "x".repeat(width - start.length());
            })
        .toList();
  }

  private static String lines(List<String> lines) {
    return lines.stream().collect(Collectors.joining("\n", "", "\n"));
  }

  @Test
  void aTeamIndexAtTheLineCapThatFitsReachesTheAgentWhole() throws IOException {
    List<String> index = indexLines(MemoryIndex.MAX_LINES, 38);
    Files.writeString(memory.resolve("team/MEMORY.md"), lines(index));

    String context = sessionStart();

    assertThat(context).contains(String.join("\n", index)).doesNotContain("Only the first");
  }

  @Test
  void aTeamIndexAtTheLineCapKeepsWholeLinesAndPointsAtTheRest() throws IOException {
    List<String> index = indexLines(MemoryIndex.MAX_LINES, 120);
    Path file = memory.resolve("team/MEMORY.md");
    Files.writeString(file, lines(index));

    String context = sessionStart();

    int shown = (int) index.stream().filter(context::contains).count();
    assertThat(shown).isGreaterThan(50).isLessThan(MemoryIndex.MAX_LINES);
    assertThat(context)
        .startsWith(
            "## team/MEMORY.md (shared with everyone on this repository)\n\n<teammate-notes ")
        .contains(
            String.join("\n", index.subList(0, shown))
                + "\n</teammate-notes>\n> Only the first "
                + shown
                + " of "
                + MemoryIndex.MAX_LINES
                + " lines fit in this hook's answer; read the rest in "
                + file)
        .doesNotContain("- [Topic " + (shown + 1) + "]");
  }

  @Test
  void aTeamIndexAtTheCharacterCapKeepsWholeLinesAndPointsAtTheRest() throws IOException {
    List<String> index = indexLines(MemoryIndex.MAX_CHARACTERS / 250, 249);
    Path file = memory.resolve("team/MEMORY.md");
    Files.writeString(file, lines(index));
    assertThat(Files.size(file)).isGreaterThanOrEqualTo(MemoryIndex.MAX_CHARACTERS - 1);

    String context = sessionStart();

    int shown = (int) index.stream().filter(context::contains).count();
    assertThat(shown).isGreaterThan(10).isLessThan(index.size());
    assertThat(context)
        .contains("> Only the first " + shown + " of " + index.size() + " lines")
        .contains(file.toString());
  }

  @Test
  void withThePrivateIndexBothIndexesAtTheirCapsStillFitTeamFirst() throws IOException {
    Files.writeString(
        memory.resolve("team/MEMORY.md"), lines(indexLines(MemoryIndex.MAX_LINES, 120)));
    Files.writeString(memory.resolve("MEMORY.md"), lines(indexLines(MemoryIndex.MAX_LINES, 120)));

    String context = sessionStart("--private-index");

    assertThat(context)
        .startsWith("## team/MEMORY.md")
        .contains(memory.resolve("MEMORY.md").toString());
  }

  @Test
  void jsonEscapesAreCountedSoQuotesAndNewlinesCannotPushTheAnswerOver() throws IOException {
    List<String> index =
        IntStream.rangeClosed(1, MemoryIndex.MAX_LINES)
            .mapToObj(n -> "\"" + "\\".repeat(60) + "\"" + n)
            .toList();
    Files.writeString(memory.resolve("team/MEMORY.md"), lines(index));

    String context = sessionStart();

    assertThat(context).contains("lines fit in this hook's answer");
  }

  @Test
  void recallAtItsCapsFitsWithTheFirstMemoryWholeAndPointersForTheRest() throws IOException {
    for (int n = 1; n <= Recall.MAX_MEMORIES + 2; n++) {
      String body =
          IntStream.rangeClosed(1, 100)
              .mapToObj(line -> "deploy pipeline rollback step " + line + " " + "y".repeat(40))
              .collect(Collectors.joining("\n"));
      Files.writeString(
          memory.resolve("deploy-" + n + ".md"),
          "---\nname: deploy-"
              + n
              + "\ndescription: deploy pipeline rollback notes "
              + n
              + "\nmetadata:\n  type: project\n---\n\n"
              + body
              + "\n");
    }
    String prompt = "how do we roll back the deploy pipeline";
    List<Path> recalled =
        new Recall(new OfflineLanguageModel("test"), clock)
            .recall(memory, prompt, List.of(), SurfacedMemories.NONE).memories().stream()
                .map(RecalledMemory::file)
                .toList();
    assertThat(recalled).hasSizeGreaterThan(2);
    CommandRun run = new CommandRun();
    run.run(
        new HookCommand.UserPrompt(
            new Environment(variables, home, home),
            new ByteArrayInputStream(
                input(
                    "UserPromptSubmit",
                    Map.of("prompt", "how do we roll back the deploy pipeline"))),
            clock));

    String context = answer(run);

    assertThat(context).contains("deploy pipeline rollback step 1 ");
    assertThat(context.split("Memory \\(saved today\\)", -1).length - 1).isGreaterThanOrEqualTo(1);
    assertThat(context)
        .containsPattern("(Only the first \\d+ of \\d+ lines|Left out for lack of room)");
    assertThat(recalled).allSatisfy(file -> assertThat(context).contains(file.toString()));
  }
}
