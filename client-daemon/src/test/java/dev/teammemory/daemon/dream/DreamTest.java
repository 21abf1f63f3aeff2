package dev.teammemory.daemon.dream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.model.ModelSettings;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.model.RetryPolicy;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.testing.ScriptedServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Consolidation on real memory folders. */
class DreamTest {

  private static final String CURRENT = "99999999-0000-4000-8000-000000000000";

  @TempDir Path home;

  private final Map<String, String> variables = new HashMap<>();
  private final List<String> progress = new ArrayList<>();
  private Path project;
  private Path memory;
  private Path sessions;

  @BeforeEach
  void machine() throws IOException {
    project = Files.createDirectories(home.resolve("app"));
    variables.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
    variables.put("XDG_STATE_HOME", home.resolve("state").toString());
    memory = location().directory();
    sessions = memory.getParent();
    Files.createDirectories(memory);
  }

  private Environment environment() {
    return new Environment(variables, home, project);
  }

  private MemoryLocation location() {
    return MemoryLocation.resolve(environment());
  }

  private Dream dream(LanguageModel model) {
    return new Dream(
        ClaudeLayout.of(environment()),
        model,
        Clock.systemUTC(),
        SecretGuard.withDefaultRules(),
        progress::add);
  }

  private DreamOutcome run(Dream.Mode mode) throws IOException {
    return dream(new OfflineLanguageModel("test"))
        .run(
            new Dream.Request(location(), false, project, Optional.of(CURRENT), mode, () -> false));
  }

  private Path topic(String name, String type, String description, String body, Duration age)
      throws IOException {
    Path file = memory.resolve(name);
    Files.writeString(
        file,
        "---\nname: "
            + name.replace(".md", "")
            + "\ndescription: "
            + description
            + "\ntype: "
            + type
            + "\n---\n\n"
            + body);
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    return file;
  }

  /** Session transcripts are named by their session id, a UUID. */
  private static String sessionId(int number) {
    return String.format("00000000-0000-4000-8000-%012d", number);
  }

  private void sessionsTouched(int count) throws IOException {
    for (int i = 0; i < count; i++) {
      Files.writeString(sessions.resolve(sessionId(i) + ".jsonl"), "{}\n");
    }
    Files.writeString(sessions.resolve(CURRENT + ".jsonl"), "{}\n");
  }

  private void lastConsolidated(Duration ago) throws IOException {
    Path lock = memory.resolve(".consolidate-lock");
    Files.writeString(lock, "");
    Files.setLastModifiedTime(lock, FileTime.from(Instant.now().minus(ago)));
  }

  @Test
  void offlineConsolidationMergesDuplicatesFixesDatesAndRebuildsTheIndex() throws IOException {
    Path bun =
        topic(
            "feedback_bun.md",
            "feedback",
            "use bun, not npm",
            "Use bun instead of npm for installs and scripts.\n",
            Duration.ofHours(1));
    Path bunCopy =
        topic(
            "feedback_bun_copy.md",
            "feedback",
            "bun",
            "Use bun instead of npm for installs and scripts.\n",
            Duration.ofHours(5));
    Path bunNear =
        topic(
            "feedback_bun_again.md",
            "feedback",
            "bun again",
            "Use bun instead of npm for installs and scripts.\nAlso for CI jobs and installs and scripts.\n",
            Duration.ofHours(9));
    Path freeze =
        topic(
            "project_freeze.md",
            "project",
            "merge freeze",
            "We decided yesterday to freeze merges.\n",
            Duration.ofDays(2));
    Files.writeString(
        memory.resolve("MEMORY.md"),
        "# Memory\n- [Bun](feedback_bun.md) — use bun\n- [Bun copy](feedback_bun_copy.md) — bun\n- [Gone](deleted_long_ago.md) — was removed\n");

    DreamOutcome outcome = run(Dream.Mode.NOW);

    assertThat(outcome).isInstanceOf(DreamOutcome.Consolidated.class);
    assertThat(bunCopy).doesNotExist();
    assertThat(bunNear).doesNotExist();
    assertThat(Files.readString(bun))
        .endsWith(
            "Use bun instead of npm for installs and scripts.\nAlso for CI jobs and installs and scripts.\n")
        .startsWith("---\nname: feedback_bun\n");
    LocalDate written =
        LocalDate.ofInstant(Files.getLastModifiedTime(freeze).toInstant(), ZoneOffset.UTC);
    assertThat(Files.readString(freeze))
        .contains(
            "We decided " + LocalDate.now(ZoneOffset.UTC).minusDays(3) + " to freeze merges.");
    assertThat(written).isEqualTo(LocalDate.now(ZoneOffset.UTC));
    assertThat(Files.readString(memory.resolve("MEMORY.md")))
        .isEqualTo(
            "# Memory\n- [Bun](feedback_bun.md) — use bun\n- [project_freeze](project_freeze.md) — merge freeze\n");
    assertThat(((DreamOutcome.Consolidated) outcome).changes())
        .containsExactly(
            "rewrite feedback_bun.md (merged a near duplicate)",
            "rewrite project_freeze.md (relative dates made absolute)",
            "delete feedback_bun_copy.md (exact duplicate of feedback_bun.md)",
            "delete feedback_bun_again.md (near duplicate, merged into feedback_bun.md)",
            "rewrite MEMORY.md (redirected pointers to merged files, removed duplicate pointers, removed pointers to missing files, added pointers to unindexed topic files)");
    assertThat(progress)
        .containsSubsequence(
            "dream: phase 1/4 orient (sessions since the last consolidation: 0)",
            "dream: phase 2/4 gather",
            "dream: phase 3/4 consolidate",
            "dream: phase 4/4 prune and index");
    assertThat(Files.readString(memory.resolve(".consolidate-lock"))).isEmpty();
  }

  @Test
  void anIndexOverTheLimitsLosesTheEntriesOfTheOldestMemories() throws IOException {
    StringBuilder index = new StringBuilder();
    for (int i = 0; i < 230; i++) {
      topic(
          String.format("reference_%03d.md", i),
          "reference",
          "system " + i,
          "panel" + i + " board" + i + " alert" + i + "\n",
          Duration.ofMinutes(230 - i));
      index.append(String.format("- [Ref %03d](reference_%03d.md) — system %d%n", i, i, i));
    }
    Files.writeString(memory.resolve("MEMORY.md"), index);

    run(Dream.Mode.NOW);

    List<String> lines = Files.readString(memory.resolve("MEMORY.md")).lines().toList();
    assertThat(lines).hasSize(200);
    assertThat(lines.getFirst()).isEqualTo("- [Ref 030](reference_030.md) — system 30");
    assertThat(memory.resolve("reference_000.md")).exists();
  }

  @Test
  void aDryRunShowsThePlanAndChangesNothing() throws IOException {
    topic("feedback_bun.md", "feedback", "use bun", "Use bun.\n", Duration.ofHours(1));
    topic("feedback_bun_copy.md", "feedback", "use bun", "Use bun.\n", Duration.ofHours(2));

    DreamOutcome outcome = run(Dream.Mode.DRY_RUN);

    assertThat(outcome)
        .isEqualTo(
            new DreamOutcome.Planned(
                List.of(
                    "delete feedback_bun_copy.md (exact duplicate of feedback_bun.md)",
                    "rewrite MEMORY.md (added pointers to unindexed topic files)")));
    assertThat(memory.resolve("feedback_bun_copy.md")).exists();
    assertThat(memory.resolve("MEMORY.md")).doesNotExist();
    assertThat(memory.resolve(".consolidate-lock")).doesNotExist();
  }

  @Test
  void automaticConsolidationWaitsForADayAndFiveOtherSessions() throws IOException {
    lastConsolidated(Duration.ofHours(3));
    assertThat(run(Dream.Mode.AUTO))
        .isEqualTo(
            new DreamOutcome.NotDue(
                "the last consolidation was 3 h ago; the next one is due after 24 h"));

    lastConsolidated(Duration.ofHours(30));
    sessionsTouched(4);
    assertThat(run(Dream.Mode.AUTO))
        .isEqualTo(
            new DreamOutcome.NotDue("4 other sessions since the last consolidation; 5 are needed"));
    Files.writeString(sessions.resolve(sessionId(5) + ".jsonl"), "{}\n");
    assertThat(((DreamOutcome.NotDue) run(Dream.Mode.AUTO)).reason())
        .startsWith("sessions were counted 0 min ago; they are counted at most every 10 min");
  }

  @Test
  void automaticConsolidationRunsWhenEveryGateIsOpen() throws IOException {
    lastConsolidated(Duration.ofHours(30));
    sessionsTouched(5);

    DreamOutcome outcome = run(Dream.Mode.AUTO);

    assertThat(outcome)
        .isEqualTo(new DreamOutcome.Consolidated("offline consolidation", 5, List.of()));
    assertThat(Files.getLastModifiedTime(memory.resolve(".consolidate-lock")).toInstant())
        .isAfter(Instant.now().minus(Duration.ofMinutes(1)));
  }

  @Test
  void consolidationIsOffWhenTheSettingSaysSoAndInDailyLogMode() throws IOException {
    Files.createDirectories(home.resolve(".claude"));
    Files.writeString(home.resolve(".claude/settings.json"), "{\"autoDreamEnabled\": false}");
    lastConsolidated(Duration.ofDays(3));
    sessionsTouched(6);

    assertThat(((DreamOutcome.NotDue) run(Dream.Mode.AUTO)).reason())
        .startsWith("autoDreamEnabled: false in ");
    DreamOutcome dailyLog =
        dream(new OfflineLanguageModel("test"))
            .run(
                new Dream.Request(
                    location(), true, project, Optional.empty(), Dream.Mode.AUTO, () -> false));
    assertThat(dailyLog)
        .isEqualTo(
            new DreamOutcome.NotDue(
                "daily-log mode is on: its logs are consolidated only by tmem dream --now"));
    assertThat(run(Dream.Mode.NOW)).isInstanceOf(DreamOutcome.Consolidated.class);
  }

  @Test
  void aCancelledRunRollsTheLockBackAndSaysSoInTheStatus() throws IOException {
    lastConsolidated(Duration.ofDays(3));
    long prior = Files.getLastModifiedTime(memory.resolve(".consolidate-lock")).toMillis();
    topic("feedback_bun.md", "feedback", "use bun", "Use bun.\n", Duration.ofHours(1));
    AtomicInteger asked = new AtomicInteger();

    DreamOutcome outcome =
        dream(new OfflineLanguageModel("test"))
            .run(
                new Dream.Request(
                    location(),
                    false,
                    project,
                    Optional.empty(),
                    Dream.Mode.NOW,
                    () -> asked.incrementAndGet() >= 2));

    assertThat(outcome).isEqualTo(new DreamOutcome.Cancelled("gather"));
    assertThat(Files.getLastModifiedTime(memory.resolve(".consolidate-lock")).toMillis())
        .isEqualTo(prior);
    assertThat(memory.resolve("MEMORY.md")).doesNotExist();
    DreamStatus status =
        dream(new OfflineLanguageModel("test"))
            .status(location(), false, project, Optional.empty());
    assertThat(status.lastRun().orElseThrow().outcome()).isEqualTo("cancelled");
    assertThat(status.lastRun().orElseThrow().detail())
        .isEqualTo("cancelled in gather; the lock was rolled back");
    assertThat(status.holder()).isEmpty();
  }

  @Test
  void aFailedModelRunRollsTheLockBack() throws IOException {
    lastConsolidated(Duration.ofDays(3));
    long prior = Files.getLastModifiedTime(memory.resolve(".consolidate-lock")).toMillis();
    try (ScriptedServer server =
        new ScriptedServer(
            request ->
                ScriptedServer.json(
                    400,
                    "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"bad\"}}"))) {
      ModelSettings settings =
          ModelSettings.fromEnvironment(
                  Map.of("ANTHROPIC_API_KEY", "sk-test", "ANTHROPIC_BASE_URL", server.url()))
              .withRetryPolicy(new RetryPolicy(0, Duration.ZERO, Duration.ZERO, Duration.ZERO));

      DreamOutcome outcome =
          dream(new AnthropicLanguageModel(settings))
              .run(
                  new Dream.Request(
                      location(), false, project, Optional.empty(), Dream.Mode.NOW, () -> false));

      assertThat(outcome)
          .isEqualTo(
              new DreamOutcome.Failed("HTTP 400 invalid_request_error: bad (after 1 attempt)"));
      assertThat(Files.getLastModifiedTime(memory.resolve(".consolidate-lock")).toMillis())
          .isEqualTo(prior);
      assertThat(Files.readString(memory.resolve(".consolidate-lock"))).isEmpty();
      String prompt = server.requests().getFirst().getBody().utf8();
      assertThat(prompt)
          .contains(
              "## Phase 1 — Orient",
              "## Phase 2 — Gather",
              "## Phase 3 — Consolidate",
              "## Phase 4 — Prune and index");
    }
  }

  @Test
  void aLiveHolderMakesTheRunBusy() throws IOException {
    Path lock = memory.resolve(".consolidate-lock");
    Files.writeString(lock, Long.toString(ProcessHandle.current().pid()));

    DreamOutcome outcome = run(Dream.Mode.NOW);

    assertThat(outcome).isInstanceOf(DreamOutcome.Busy.class);
    assertThat(((DreamOutcome.Busy) outcome).pid()).isEqualTo(ProcessHandle.current().pid());
  }

  @Test
  void teamMemoryAndDailyLogsAreLeftAlone() throws IOException {
    Files.createDirectories(memory.resolve("team"));
    Files.createDirectories(memory.resolve("logs/2026/03"));
    Files.writeString(memory.resolve("team/a.md"), "---\ntype: project\n---\nSame.\n");
    Files.writeString(memory.resolve("team/b.md"), "---\ntype: project\n---\nSame.\n");
    Files.writeString(
        memory.resolve("logs/2026/03/2026-03-01.md"), "- 09:00 yesterday we shipped\n");

    run(Dream.Mode.NOW);

    try (Stream<Path> team = Files.list(memory.resolve("team"))) {
      assertThat(team).hasSize(2);
    }
    assertThat(Files.readString(memory.resolve("logs/2026/03/2026-03-01.md")))
        .contains("yesterday");
  }

  @Test
  void aDailyLogWithABytesThatIsNotUtf8IsStillDistilled() throws IOException {
    Path log = memory.resolve("logs/2026/03/2026-03-01.md");
    Files.createDirectories(log.getParent());
    byte[] latin1Cafe =
        "- 09:00 feedback: Use bun instead of npm at the caf\u00e9\n"
            .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    Files.write(log, latin1Cafe);

    DreamOutcome outcome = run(Dream.Mode.NOW);

    assertThat(outcome).isInstanceOf(DreamOutcome.Consolidated.class);
    assertThat(((DreamOutcome.Consolidated) outcome).changes())
        .anySatisfy(
            change ->
                assertThat(change)
                    .startsWith("create ")
                    .endsWith(" (distilled from logs/2026/03/2026-03-01.md)"));
  }

  @Test
  void aFailedRunSaysWhatFailedInWords() throws IOException {
    Path index = Files.createDirectories(memory.resolve("MEMORY.md"));
    Files.writeString(index.resolve("inside.md"), "not an index");

    DreamOutcome outcome = run(Dream.Mode.NOW);

    assertThat(outcome)
        .isEqualTo(new DreamOutcome.Failed(index + " is a folder, not a file in prune and index"));
  }
}
