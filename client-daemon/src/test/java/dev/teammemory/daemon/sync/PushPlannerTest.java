package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.Checksums;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Planning is a function of one scan and the ledger: no files, no server. */
class PushPlannerTest {

  private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");
  private static final Duration DELAY = Duration.ofSeconds(30);

  @Test
  void anEditedFileIsPlannedAndAnUnchangedOneIsNot() {
    SyncLedger ledger = ledger(synced("a.md", "old", "b.md", "same"), Map.of());

    PushPlan plan = PushPlanner.plan(scan("a.md", "new", "b.md", "same"), true, ledger, NOW, DELAY);

    assertThat(plan.changed()).containsExactly("a.md");
    assertThat(plan.missing()).isEmpty();
    assertThat(plan.deletes()).isEmpty();
    assertThat(plan.hold()).isEmpty();
  }

  @Test
  void aLookAtSomeFilesPlansTheirChangesButNeverADeleteOrAHold() {
    SyncLedger ledger =
        ledger(
            synced("a.md", "old", "b.md", "b", "c.md", "c", "d.md", "d", "e.md", "e"),
            Map.of("b.md", NOW.minusSeconds(60)));

    PushPlan plan = PushPlanner.planFiles(scan("a.md", "new"), ledger);

    assertThat(plan.changed()).containsExactly("a.md");
    assertThat(plan.missing()).isEmpty();
    assertThat(plan.deletes()).isEmpty();
    assertThat(plan.hold()).isEmpty();
  }

  @Test
  void aFileTheServerRefusedIsNotSentAgainUntilItChanges() {
    String refused = Checksums.ofContent("AKIA…");
    SyncLedger ledger = ledger(Map.of(), Map.of());
    ledger.skipsAre(Map.of("aws.md", new SyncState.Skip(SkipReason.SECRET, "rule aws", refused)));

    PushPlan same = PushPlanner.plan(scan("aws.md", "AKIA…"), true, ledger, NOW, DELAY);
    PushPlan edited = PushPlanner.plan(scan("aws.md", "clean now"), true, ledger, NOW, DELAY);

    assertThat(same.changed()).isEmpty();
    assertThat(same.skips()).containsKey("aws.md");
    assertThat(edited.changed()).containsExactly("aws.md");
  }

  @Test
  void aRefusalFromAnEarlierRunIsAskedAgainOnceButACredentialNever() {
    String deep = "d/".repeat(20) + "deep.md";
    SyncState earlierRun =
        state(
            Map.of(),
            Map.of(),
            Map.of(),
            Map.of(
                deep,
                new SyncState.Skip(
                    SkipReason.INVALID_NAME,
                    "path must be at most 20 segments deep",
                    Checksums.ofContent("deep")),
                "aws.md",
                new SyncState.Skip(SkipReason.SECRET, "rule aws", Checksums.ofContent("AKIA…"))));

    SyncLedger restarted = new SyncLedger(earlierRun, clock());
    PushPlan plan =
        PushPlanner.plan(scan(deep, "deep", "aws.md", "AKIA…"), true, restarted, NOW, DELAY);

    assertThat(plan.changed()).containsExactly(deep);
    assertThat(plan.skips()).containsOnlyKeys("aws.md");
  }

  @Test
  void aConfirmedHoldReleasesTheDeletesItHeldAndNoneThatVanishedAfter() {
    Instant longAgo = NOW.minusSeconds(600);
    Map<String, String> synced = synced("a.md", "a", "b.md", "b", "c.md", "c");
    SyncLedger ledger = ledger(synced, Map.of("a.md", longAgo, "b.md", longAgo, "c.md", longAgo));
    ledger.hold("the team folder is empty", List.of("a.md", "b.md"));
    ledger.releaseHold();

    // c.md vanished after the confirmation: nothing goes until the user confirms again.
    PushPlan emptied = PushPlanner.plan(scan(Map.of()), true, ledger, NOW, DELAY);
    assertThat(emptied.hold()).isPresent();
    assertThat(emptied.deletes()).isEmpty();

    ledger.hold("the team folder is empty", List.of("a.md", "b.md", "c.md"));
    ledger.releaseHold();
    PushPlan confirmed = PushPlanner.plan(scan(Map.of()), true, ledger, NOW, DELAY);
    assertThat(confirmed.deletes())
        .extracting(PushPlan.Delete::key)
        .containsExactlyInAnyOrder("a.md", "b.md", "c.md");
  }

  @Test
  void aMissingSyncedFileIsDeletedOnlyOnAScanAtLeastTheDelayLater() {
    Map<String, String> synced = synced("a.md", "a", "b.md", "b");
    SyncLedger ledger = ledger(synced, Map.of("a.md", NOW.minusSeconds(29)));
    SyncLedger later = ledger(synced, Map.of("a.md", NOW.minusSeconds(30)));

    PushPlan first = PushPlanner.plan(scan("b.md", "b"), true, ledger, NOW, DELAY);
    PushPlan second = PushPlanner.plan(scan("b.md", "b"), true, later, NOW, DELAY);

    assertThat(first.missing()).containsExactly("a.md");
    assertThat(first.deletes()).isEmpty();
    assertThat(second.deletes())
        .containsExactly(new PushPlan.Delete("a.md", Checksums.ofContent("a")));
  }

  @Test
  void aFileATeammateChangedOnTheServerIsNeverDeleted() {
    Map<String, String> synced = synced("a.md", "a", "b.md", "b");
    Map<String, String> server = new HashMap<>(synced);
    server.put("a.md", Checksums.ofContent("their edit"));
    SyncLedger ledger =
        new SyncLedger(state(server, synced, Map.of("a.md", NOW.minusSeconds(60))), clock());

    PushPlan plan = PushPlanner.plan(scan("b.md", "b"), true, ledger, NOW, DELAY);

    assertThat(plan.missing()).isEmpty();
    assertThat(plan.deletes()).isEmpty();
  }

  @Test
  void anUnreadableFileIsNotMissing() {
    SyncLedger ledger = ledger(synced("a.md", "a"), Map.of("a.md", NOW.minusSeconds(60)));
    LocalSnapshot snapshot =
        new LocalSnapshot(
            Map.of(),
            Map.of(
                "a.md", new SyncState.Skip(SkipReason.UNREADABLE, "AccessDeniedException", null)));

    PushPlan plan = PushPlanner.plan(snapshot, true, ledger, NOW, DELAY);

    assertThat(plan.deletes()).isEmpty();
    assertThat(plan.skips().get("a.md").reason()).isEqualTo(SkipReason.UNREADABLE);
  }

  @Test
  void anEmptyOrMissingFolderHoldsEveryDelete() {
    SyncLedger ledger = ledger(synced("a.md", "a"), Map.of("a.md", NOW.minusSeconds(60)));
    LocalSnapshot empty = new LocalSnapshot(Map.of(), Map.of());

    PushPlan emptied = PushPlanner.plan(empty, true, ledger, NOW, DELAY);
    PushPlan gone = PushPlanner.plan(empty, false, ledger, NOW, DELAY);

    assertThat(emptied.hold()).contains("the team folder is empty");
    assertThat(emptied.deletes()).isEmpty();
    assertThat(gone.hold()).contains("the team folder is missing");
    assertThat(gone.deletes()).isEmpty();
  }

  @Test
  void moreThanATenthAndAtLeastFiveVanishingTogetherHoldsUntilReleased() {
    Map<String, String> contents = new TreeMap<>();
    for (int i = 0; i < 40; i++) {
      contents.put("n" + i + ".md", "content " + i);
    }
    Map<String, String> synced = new TreeMap<>();
    contents.forEach((key, content) -> synced.put(key, Checksums.ofContent(content)));
    Map<String, Instant> missing = new TreeMap<>();
    Map<String, String> kept = new TreeMap<>(contents);
    for (int i = 0; i < 5; i++) {
      missing.put("n" + i + ".md", NOW.minusSeconds(60));
      kept.remove("n" + i + ".md");
    }
    SyncLedger ledger = ledger(synced, missing);

    PushPlan held = PushPlanner.plan(scan(kept), true, ledger, NOW, DELAY);
    ledger.hold(held.hold().orElseThrow(), List.copyOf(held.missing()));
    ledger.releaseHold();
    PushPlan released = PushPlanner.plan(scan(kept), true, ledger, NOW, DELAY);

    assertThat(held.hold()).contains("5 of 40 synced files vanished together");
    assertThat(held.deletes()).isEmpty();
    assertThat(released.deletes()).hasSize(5);
  }

  @Test
  void fourVanishingFilesAreNotAMassDelete() {
    Map<String, String> synced =
        synced("a.md", "a", "b.md", "b", "c.md", "c", "d.md", "d", "e.md", "e");
    Map<String, Instant> missing = new TreeMap<>();
    for (String key : List.of("a.md", "b.md", "c.md", "d.md")) {
      missing.put(key, NOW.minusSeconds(60));
    }

    PushPlan plan = PushPlanner.plan(scan("e.md", "e"), true, ledger(synced, missing), NOW, DELAY);

    assertThat(plan.hold()).isEmpty();
    assertThat(plan.deletes()).hasSize(4);
  }

  private static Map<String, String> synced(String... keysAndContents) {
    Map<String, String> checksums = new TreeMap<>();
    for (int i = 0; i < keysAndContents.length; i += 2) {
      checksums.put(keysAndContents[i], Checksums.ofContent(keysAndContents[i + 1]));
    }
    return checksums;
  }

  private static LocalSnapshot scan(String... keysAndContents) {
    Map<String, String> contents = new TreeMap<>();
    for (int i = 0; i < keysAndContents.length; i += 2) {
      contents.put(keysAndContents[i], keysAndContents[i + 1]);
    }
    return scan(contents);
  }

  private static LocalSnapshot scan(Map<String, String> contents) {
    Map<String, LocalFile> files = new TreeMap<>();
    contents.forEach(
        (key, content) ->
            files.put(
                key,
                new LocalFile(
                    key, Path.of("/team", key), Checksums.ofContent(content), content.length())));
    return new LocalSnapshot(files, Map.of());
  }

  private static SyncLedger ledger(Map<String, String> synced, Map<String, Instant> missing) {
    return new SyncLedger(state(synced, synced, missing), clock());
  }

  /** A saved state with these server and synced checksums (PullTest builds its ledgers on it). */
  static SyncState state(
      Map<String, String> server, Map<String, String> synced, Map<String, Instant> missing) {
    return state(server, synced, missing, Map.of());
  }

  private static SyncState state(
      Map<String, String> server,
      Map<String, String> synced,
      Map<String, Instant> missing,
      Map<String, SyncState.Skip> skipped) {
    Map<String, String> missingSince = new TreeMap<>();
    missing.forEach((key, at) -> missingSince.put(key, at.toString()));
    SyncState initial = SyncState.initial("http://127.0.0.1:1", "acme/widgets", "/team");
    return new SyncState(
        initial.serverUrl(),
        initial.repo(),
        initial.teamDir(),
        "sha256:" + "0".repeat(64),
        server,
        synced,
        0,
        List.of(),
        skipped,
        List.of(),
        Map.of(),
        Map.of(),
        null,
        null,
        null,
        null,
        null,
        missingSince,
        null,
        null,
        null);
  }

  private static Clock clock() {
    return Clock.fixed(NOW, ZoneOffset.UTC);
  }
}
