package dev.teammemory.daemon.notes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.transcript.TranscriptBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real watcher on real files; it waits on outcomes with a deadline, never for a fixed time. */
class TranscriptWatcherTest {

  private static final long DEADLINE_SECONDS = 30;

  @TempDir Path root;
  private ClaudeLayout layout;
  private final BlockingQueue<NotesOutcome> outcomes = new LinkedBlockingQueue<>();
  private TranscriptWatcher watcher;

  @BeforeEach
  void watcher() {
    layout = new ClaudeLayout(root.resolve("config"), root.resolve("state"));
    SessionNotes notes =
        new SessionNotes(layout, new OfflineLanguageModel("test"), Clock.systemUTC());
    watcher = new TranscriptWatcher(layout, notes, Duration.ofMillis(50), outcomes::add);
  }

  @AfterEach
  void close() throws IOException {
    watcher.close();
  }

  private Path transcript(String session) {
    return layout.projectsDirectory().resolve("-home-dev-shop").resolve(session + ".jsonl");
  }

  private static TranscriptBuilder bigConversation(String session) {
    return new TranscriptBuilder(session, "/home/dev/shop")
        .user("Refactor the invoice exporter")
        .assistant("Done, see exporter.ts", 12_000);
  }

  private NotesOutcome next() throws InterruptedException {
    NotesOutcome outcome = outcomes.poll(DEADLINE_SECONDS, TimeUnit.SECONDS);
    assertThat(outcome).as("an outcome within %d seconds", DEADLINE_SECONDS).isNotNull();
    return outcome;
  }

  @Test
  void aGrowingTranscriptGetsItsNotes() throws Exception {
    watcher.start();
    Path transcript = transcript("aaaa1111-0000");

    bigConversation("aaaa1111-0000").writeTo(transcript);

    NotesOutcome outcome = next();
    assertThat(outcome).isInstanceOf(NotesOutcome.Updated.class);
    assertThat(outcome.notes()).isEqualTo(ClaudeLayout.sessionNotesBeside(transcript));
    assertThat(outcome.notes()).exists();
  }

  @Test
  void transcriptsThatExistedBeforeStartWaitUntilTheyGrow() throws Exception {
    TranscriptBuilder old = bigConversation("bbbb2222-0000");
    Path oldTranscript = old.writeTo(transcript("bbbb2222-0000"));
    watcher.start();
    watcher.scan();

    // Updates run one at a time in the order they were scheduled: once this one is seen, an update
    // of the untouched transcript would have been seen before it.
    bigConversation("cccc3333-0000").writeTo(transcript("cccc3333-0000"));
    assertThat(next().notes())
        .isEqualTo(ClaudeLayout.sessionNotesBeside(transcript("cccc3333-0000")));
    assertThat(ClaudeLayout.sessionNotesBeside(oldTranscript)).doesNotExist();

    int written = old.lineCount();
    old.user("And the CSV header").assistant("Added.", 12_500).appendTo(oldTranscript, written);
    assertThat(next().notes()).isEqualTo(ClaudeLayout.sessionNotesBeside(oldTranscript));
  }

  @Test
  void subAgentTranscriptsAreNotSessions() throws Exception {
    watcher.start();
    Path subAgent =
        layout.projectsDirectory().resolve("-home-dev-shop/dddd4444-0000/subagents/agent-1.jsonl");

    bigConversation("dddd4444-0000").writeTo(subAgent);
    bigConversation("eeee5555-0000").writeTo(transcript("eeee5555-0000"));

    assertThat(next().notes())
        .isEqualTo(ClaudeLayout.sessionNotesBeside(transcript("eeee5555-0000")));
    assertThat(outcomes).isEmpty();
    assertThat(layout.projectsDirectory().resolve("-home-dev-shop/dddd4444-0000/session-memory"))
        .doesNotExist();
  }

  @Test
  void aSmallTranscriptIsLookedAtButNotYetSummarised() throws Exception {
    watcher.start();

    new TranscriptBuilder("ffff6666-0000", "/home/dev/shop")
        .user("hi")
        .assistant("hello", 300)
        .writeTo(transcript("ffff6666-0000"));

    assertThat(next()).isInstanceOf(NotesOutcome.NotDue.class);
  }

  @Test
  void scanPicksUpGrowthTheWatcherMissed() throws Exception {
    Path transcript = bigConversation("abab7777-0000").writeTo(transcript("abab7777-0000"));

    // Not started: only the scan, as a periodic timer would call it, sees the file.
    watcher.scan();

    assertThat(next().notes()).isEqualTo(ClaudeLayout.sessionNotesBeside(transcript));
  }
}
