package dev.teammemory.daemon.cli;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.testing.TmemCommand;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input as a user's machine has it, through the real entry points: {@code tmem} processes capped at
 * {@code -Xmx256m}, run as commands and as hooks. Each case ends in the right exit code and one
 * clear sentence, never an exception's name or a stack trace, and loses nothing: files the input
 * came from are as they were.
 */
class RealWorldInputIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long DEADLINE_SECONDS = 120;

  /** What a user must never see without TMEM_DEBUG=1. */
  private static final Pattern RAW_FAILURE =
      Pattern.compile("Exception|Error:|\\tat |unexpected [A-Z]");

  @TempDir Path home;

  private Path project;
  private Path memory;
  private Path transcripts;
  private final List<Path> huge = new ArrayList<>();

  @BeforeEach
  void machine() throws IOException {
    project = Files.createDirectories(home.resolve("app"));
    memory = Files.createDirectories(home.resolve("memory"));
    transcripts = Files.createDirectories(home.resolve("transcripts"));
  }

  @AfterEach
  void deleteTheHugeFilesAtOnce() throws IOException {
    for (Path file : huge) {
      Files.deleteIfExists(file);
    }
  }

  /** A finished {@code tmem} process. */
  private record Run(int exit, String out, String err) {
    Run {
      assertThat(err).as("stderr of tmem").doesNotContainPattern(RAW_FAILURE);
      assertThat(out).as("stdout of tmem").doesNotContainPattern(RAW_FAILURE);
    }
  }

  private Run tmem(String... arguments) throws IOException, InterruptedException {
    return tmemWithInput(new byte[0], arguments);
  }

  private Run tmemWithInput(byte[] stdin, String... arguments)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile(home, "out", ".txt");
    Path err = Files.createTempFile(home, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(TmemCommand.of(arguments))
            .directory(project.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    Map<String, String> variables = builder.environment();
    variables.clear();
    variables.putAll(machineVariables());
    Process process = builder.start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(stdin);
    }
    if (!process.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("tmem " + String.join(" ", arguments) + " did not finish");
    }
    return new Run(process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
  }

  private Map<String, String> machineVariables() {
    Map<String, String> variables = new HashMap<>();
    variables.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    variables.put("HOME", home.toString());
    variables.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
    variables.put("XDG_STATE_HOME", home.resolve("state").toString());
    variables.put(MemoryLocation.OVERRIDE_VARIABLE, memory.toString());
    variables.put("TMEM_OFFLINE", "1");
    return variables;
  }

  private byte[] hookInput(String event, Map<String, Object> more) throws IOException {
    Map<String, Object> input = new HashMap<>(more);
    input.put("session_id", "session-1");
    input.put("cwd", project.toString());
    input.put("hook_event_name", event);
    return JSON.writeValueAsBytes(input);
  }

  private static String additionalContext(String hookOutput) throws IOException {
    return JSON.readTree(hookOutput).path("hookSpecificOutput").path("additionalContext").asText();
  }

  private Path conversation(String name) throws IOException {
    HandMadeTranscript transcript = new HandMadeTranscript("session-1", project.toString());
    transcript.user("Please fix the flaky login test.");
    transcript.assistant("The login test waits on a fixed timer; I will wait on the request.");
    transcript.user("Remember: never use fixed sleeps in tests.");
    transcript.assistant("Noted, and fixed.");
    return transcript.write(transcripts.resolve(name));
  }

  // --- non-UTF-8 bytes ----------------------------------------------------------------------

  @Test
  void aLatin1ByteInMemoryMdIsShownAsAReplacementCharacterByTheIndexAndTheSessionStartHook()
      throws Exception {
    byte[] index = "- [Café rules](cafe.md) - how we brew\n".getBytes(ISO_8859_1);
    Files.write(memory.resolve("MEMORY.md"), index);

    Run command = tmem("memory", "index");
    // The private index is in the hook's answer only for agents that do not load it themselves.
    Run hook =
        tmemWithInput(
            hookInput("SessionStart", Map.of()), "hook", "session-start", "--private-index");

    assertThat(command.exit()).isZero();
    assertThat(command.out()).contains("- [Caf\uFFFD rules](cafe.md) - how we brew");
    assertThat(hook.exit()).isZero();
    assertThat(additionalContext(hook.out()))
        .contains("## MEMORY.md")
        .contains("- [Caf\uFFFD rules](cafe.md)");
    assertThat(memory.resolve("MEMORY.md")).hasBinaryContent(index);
  }

  @Test
  void aLatin1ByteInATopicIsRecalledAndConsolidationLeavesTheFileByteForByte() throws Exception {
    byte[] topic =
        ("---\nname: Café rules\ndescription: how the café brews coffee\ntype: project\n---\n"
                + "The café brews with a French press, not espresso (decided yesterday).\n")
            .getBytes(ISO_8859_1);
    Files.write(memory.resolve("cafe.md"), topic);

    Run recall = tmem("recall", "how", "does", "the", "caf\u00e9", "brew", "coffee");
    Run dream = tmem("dream", "--now");

    assertThat(recall.exit()).isZero();
    assertThat(recall.out()).contains("French press").contains("caf\uFFFD");
    assertThat(dream.exit()).as(dream.err()).isZero();
    assertThat(memory.resolve("cafe.md")).hasBinaryContent(topic);
  }

  @Test
  void aLatin1ByteInATranscriptIsCompactedAndNotedAsAReplacementCharacter() throws Exception {
    Path transcript = conversation("latin1.jsonl");
    String jsonl = Files.readString(transcript, UTF_8).replace("Noted, and", "Noted, caf\u00e9");
    byte[] bytes = jsonl.getBytes(ISO_8859_1);
    Files.write(transcript, bytes);

    Run compact = tmem("compact", "--transcript", transcript.toString());
    Run notes = tmem("notes", "update", "--transcript", transcript.toString(), "--force");

    assertThat(compact.exit()).as(compact.err()).isZero();
    assertThat(compact.out()).contains("caf\uFFFD");
    assertThat(compact.err()).contains("tmem: compacted by");
    assertThat(notes.exit()).as(notes.err()).isZero();
    assertThat(notes.out()).startsWith("updated ");
    assertThat(transcript).hasBinaryContent(bytes);
  }

  // --- sizes ----------------------------------------------------------------------------------

  @Test
  void aThreeGigabyteFileTheAgentReadIsNeitherRestoredWholeNorScannedWhole() throws Exception {
    Path log = home.resolve("server.log");
    try (RandomAccessFile sparse = new RandomAccessFile(log.toFile(), "rw")) {
      sparse.setLength(3L * 1024 * 1024 * 1024);
    }
    huge.add(log);
    HandMadeTranscript transcript = new HandMadeTranscript("session-1", project.toString());
    transcript.user("Why did the server crash last night?");
    transcript.toolRound(
        "toolu_read_log", "Read", Map.of("file_path", log.toString()), "(3 GB of log)");
    transcript.assistant("It ran out of disk space at 02:14.");
    transcript.user("Thanks.");
    transcript.assistant("You're welcome.");
    Path file = transcript.write(transcripts.resolve("big-read.jsonl"));

    Run compact = tmem("compact", "--transcript", file.toString(), "--format", "json");
    Run scan = tmem("scan", log.toString());

    assertThat(compact.exit()).as(compact.err()).isZero();
    JsonNode outcome = JSON.readTree(compact.out());
    assertThat(outcome.path("outcome").asText()).isEqualTo("compacted");
    // All zeros is not text: it is not read again after compaction.
    assertThat(outcome.path("restoredFiles").toString()).doesNotContain("server.log");
    assertThat(scan.exit()).as(scan.err()).isZero();
    assertThat(scan.out()).isEmpty();
    assertThat(Files.size(log)).isEqualTo(3L * 1024 * 1024 * 1024);
  }

  @Test
  void aOneLineTopicOf300MegabytesIsScannedRecalledAndLeftAsItIs() throws Exception {
    Path topic = memory.resolve("build_log.md");
    huge.add(topic);
    byte[] chunk = new byte[1024 * 1024];
    Arrays.fill(chunk, (byte) 'a');
    byte[] head = "---\nname: Build log\ndescription: the nightly build log\n---\n".getBytes(UTF_8);
    try (OutputStream out = Files.newOutputStream(topic)) {
      out.write(head);
      for (int i = 0; i < 300; i++) {
        out.write(chunk);
      }
    }
    long size = Files.size(topic);

    Run recall = tmem("recall", "nightly", "build", "log");
    Run dream = tmem("dream", "--now");

    assertThat(recall.exit()).as(recall.err()).isZero();
    assertThat(recall.out())
        .contains("build_log.md")
        .contains("This memory file was truncated (4096 byte limit)");
    assertThat(dream.exit()).as(dream.err()).isZero();
    assertThat(Files.size(topic)).isEqualTo(size);
  }

  // --- not transcripts ------------------------------------------------------------------------

  @Test
  void aBinaryTranscriptIsNamedForWhatItIsByNotesAndCompact() throws Exception {
    byte[] bytes = new byte[64 * 1024];
    new Random(15).nextBytes(bytes);
    for (int i = 1000; i < bytes.length; i += 1000) {
      bytes[i] = '\n';
    }
    Path transcript = Files.write(transcripts.resolve("photo.jsonl"), bytes);

    Run notes = tmem("notes", "update", "--transcript", transcript.toString(), "--force");
    Run compact = tmem("compact", "--transcript", transcript.toString());

    assertThat(notes.exit()).isEqualTo(1);
    assertThat(notes.err())
        .startsWith("tmem: could not update ")
        .contains("the transcript has no messages: none of its ")
        .contains("lines are a JSON object (is it a session's .jsonl transcript?)")
        .doesNotContain("--force updates now");
    assertThat(compact.exit()).isEqualTo(1);
    assertThat(compact.err())
        .startsWith("tmem: could not compact " + transcript)
        .contains("none of its ")
        .doesNotContain("since its last compaction");
    assertThat(transcript).hasBinaryContent(bytes);
  }

  @Test
  void anEmptyTranscriptIsCalledEmptyNotCompactedBefore() throws Exception {
    Path transcript = Files.createFile(transcripts.resolve("empty.jsonl"));

    Run notes = tmem("notes", "update", "--transcript", transcript.toString(), "--force");
    Run compact = tmem("compact", "--transcript", transcript.toString());

    assertThat(notes.exit()).isEqualTo(1);
    assertThat(notes.err()).contains(": the transcript is empty");
    assertThat(compact.exit()).isEqualTo(1);
    assertThat(compact.err())
        .isEqualTo("tmem: could not compact " + transcript + ": the transcript is empty\n");
  }

  @Test
  void malformedJsonLinesAreSkippedAndTheRestIsCompactedAndExtracted() throws Exception {
    Path transcript = conversation("torn.jsonl");
    String torn =
        "{\"type\":\"user\",\"message\":{\"role\":\n"
            + "not json at all\n"
            + Files.readString(transcript, UTF_8)
            + "[1,2,3]\n{\"type\":\"assistant\",\"mess";
    Files.writeString(transcript, torn, UTF_8);

    Run compact = tmem("compact", "--transcript", transcript.toString(), "--format", "json");
    Run extract = tmem("extract", "--transcript", transcript.toString());

    assertThat(compact.exit()).as(compact.err()).isZero();
    assertThat(JSON.readTree(compact.out()).path("outcome").asText()).isEqualTo("compacted");
    assertThat(extract.exit()).as(extract.err()).isZero();
    assertThat(extract.out()).startsWith("extracted by ");
    assertThat(Files.readString(transcript, UTF_8)).isEqualTo(torn);
  }

  // --- the wrong kind of file -----------------------------------------------------------------

  @Test
  void anOutputPathThatIsAFolderIsAUsageErrorAndNothingIsWritten() throws Exception {
    Path transcript = conversation("session.jsonl");
    Path folder = Files.createDirectories(home.resolve("out"));
    Files.writeString(folder.resolve("keep.txt"), "mine");

    Run compact =
        tmem("compact", "--transcript", transcript.toString(), "--output", folder.toString());

    assertThat(compact.exit()).isEqualTo(2);
    assertThat(compact.err())
        .isEqualTo(
            "tmem: --output "
                + folder
                + " is a folder; give the file to write the conversation to\n");
    try (Stream<Path> inside = Files.list(folder)) {
      assertThat(inside).containsExactly(folder.resolve("keep.txt"));
    }
  }

  @Test
  void aFolderWhereMemoryMdShouldBeLeavesTheHookAnsweringAndTheCommandSayingSo() throws Exception {
    Files.createDirectories(memory.resolve("MEMORY.md"));
    Files.writeString(
        memory.resolve("rules.md"), "---\nname: Rules\ndescription: house rules\n---\nBe kind.\n");

    // The private index is in the hook's answer only for agents that do not load it themselves.
    Run hook =
        tmemWithInput(
            hookInput("SessionStart", Map.of()), "hook", "session-start", "--private-index");
    Run command = tmem("memory", "index");

    assertThat(hook.exit()).isZero();
    assertThat(additionalContext(hook.out())).contains("Your MEMORY.md is currently empty");
    assertThat(hook.err())
        .isEqualTo(
            "tmem: left out "
                + memory.resolve("MEMORY.md")
                + ": "
                + memory.resolve("MEMORY.md")
                + " is a folder, not a file\n");
    assertThat(command.exit()).isEqualTo(1);
    assertThat(command.err())
        .isEqualTo(
            "tmem: cannot read the index: "
                + memory.resolve("MEMORY.md")
                + " is a folder, not a file; MEMORY.md must be a readable file\n");
    assertThat(memory.resolve("MEMORY.md")).isDirectory();
  }

  @Test
  void aFifoAmongTheTopicsOrAsTheTranscriptBlocksNothing() throws Exception {
    Path fifo = memory.resolve("pipe.md");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mkfifo.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();
    Files.writeString(
        memory.resolve("pipes.md"),
        "---\nname: Pipes\ndescription: named pipes in the build\n---\nUse mkfifo.\n");

    Run recall = tmem("recall", "named", "pipes");
    Run compact = tmem("compact", "--transcript", fifo.toString());
    Run prompt =
        tmemWithInput(
            hookInput("UserPromptSubmit", Map.of("prompt", "how do the named pipes work?")),
            "hook",
            "user-prompt");

    assertThat(recall.exit()).isZero();
    assertThat(recall.out()).contains("Use mkfifo.");
    assertThat(compact.exit()).isEqualTo(2);
    assertThat(compact.err())
        .isEqualTo(
            "tmem: --transcript "
                + fifo
                + " is not a file; give the session's .jsonl transcript\n");
    assertThat(prompt.exit()).isZero();
    assertThat(additionalContext(prompt.out())).contains("Use mkfifo.");
  }

  @Test
  void aFolderWhereTheSessionNotesShouldBeLeavesPreCompactAnswering() throws Exception {
    Path transcript = conversation("session-1.jsonl");
    Path notes = transcripts.resolve("session-1/session-memory/summary.md");
    Files.createDirectories(notes);

    Run hook =
        tmemWithInput(
            hookInput("PreCompact", Map.of("transcript_path", transcript.toString())),
            "hook",
            "pre-compact");

    assertThat(hook.exit()).isZero();
    assertThat(hook.out()).isEmpty();
    assertThat(notes).isDirectory();
  }

  @Test
  void topicsThatVanishWhileTheyAreScannedAreLeftOutAndTheRestIsRecalled() throws Exception {
    for (int i = 0; i < 2_000; i++) {
      Files.writeString(
          memory.resolve("note_" + i + ".md"),
          "---\nname: Note " + i + "\ndescription: a passing note\n---\nNothing much.\n");
    }
    Files.writeString(
        memory.resolve("keeper.md"),
        "---\nname: Keeper\ndescription: the release checklist\n---\nTag, build, publish.\n");
    Path out = Files.createTempFile(home, "out", ".txt");
    Path err = Files.createTempFile(home, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(TmemCommand.of("recall", "release", "checklist"))
            .directory(project.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().clear();
    builder.environment().putAll(machineVariables());
    Process recall = builder.start();
    // Delete the notes for as long as the scan may be running: whichever it has listed but not
    // read yet vanish under it.
    for (int i = 0; i < 2_000 && recall.isAlive(); i++) {
      Files.deleteIfExists(memory.resolve("note_" + i + ".md"));
    }
    assertThat(recall.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();
    Run run =
        new Run(recall.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("Tag, build, publish.");
    assertThat(memory.resolve("keeper.md")).exists();
  }
}
