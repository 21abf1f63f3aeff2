package dev.teammemory.daemon.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.testing.CommandRun;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Stop hook's offline extraction hears, on a session in Claude Code's format: the most
 * common correction arrives after a rejected tool call and the interruption it records.
 */
class ExtractionHookTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SESSION = "7d2e4b1a-0c3f-4e5d-8a9b-1c2d3e4f5a6b";

  @TempDir Path home;

  @Test
  void aCorrectionAfterARejectedCallIsSavedUnderAShortSlugWithAThirdPersonDescription()
      throws IOException {
    Path project = Files.createDirectories(home.resolve("shop"));
    Path memory = home.resolve("memory");
    HandMadeTranscript transcript = new HandMadeTranscript(SESSION, project.toString());
    transcript.user(
        "Add a date picker to the delivery step. I'm a backend dev, so keep it simple.");
    String response = transcript.newResponseId();
    transcript.text(response, "react-day-picker is not installed yet; installing it.");
    transcript.toolCall(
        response, "toolu_npm", "Bash", Map.of("command", "npm install react-day-picker"));
    transcript.toolResult("toolu_npm", HandMadeTranscript.REFUSED, true);
    transcript.user("[Request interrupted by user for tool use]");
    transcript.user("No, use bun instead of npm");
    transcript.assistant("Added it with bun add react-day-picker.");
    Path transcriptFile =
        transcript.write(home.resolve(".claude/projects/-shop/" + SESSION + ".jsonl"));
    Map<String, String> variables = new HashMap<>();
    variables.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
    variables.put("XDG_STATE_HOME", home.resolve("state").toString());
    variables.put(MemoryLocation.OVERRIDE_VARIABLE, memory.toString());
    variables.put("TMEM_OFFLINE", "1");
    Map<String, Object> input =
        Map.of(
            "session_id",
            SESSION,
            "transcript_path",
            transcriptFile.toString(),
            "cwd",
            project.toString(),
            "hook_event_name",
            "Stop",
            "stop_hook_active",
            false);
    CommandRun tmem = new CommandRun();

    int exit =
        tmem.run(
            new HookCommand.Stop(
                new Environment(variables, home, home),
                new ByteArrayInputStream(JSON.writeValueAsBytes(input)),
                Clock.fixed(Instant.parse("2026-03-02T12:30:00Z"), ZoneOffset.UTC)),
            "--foreground");

    assertThat(exit).as(tmem.err()).isZero();
    assertThat(Files.readString(memory.resolve("bun-not-npm.md")))
        .startsWith(
            "---\nname: bun-not-npm\ndescription: \"Use bun instead of npm\"\ntype: feedback\n")
        .contains("> No, use bun instead of npm");
    assertThat(Files.readString(memory.resolve("backend-dev-keep-simple.md")))
        .contains("description: \"The user is a backend dev, so keep it simple\"", "type: user");
    assertThat(Files.readString(memory.resolve("MEMORY.md")))
        .contains(
            "- [bun-not-npm](bun-not-npm.md) — Use bun instead of npm\n",
            "- [backend-dev-keep-simple](backend-dev-keep-simple.md) — The user is a backend dev,"
                + " so keep it simple\n");
  }
}
