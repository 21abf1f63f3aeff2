package dev.teammemory.daemon.dream;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.StateFiles;
import dev.teammemory.daemon.memory.ClaudeLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What tmem remembers about the consolidation of one memory directory, in its state directory
 * ({@code <state>/dream/<memory dir>.json}): when sessions were last scanned (the 10-minute
 * throttle spans processes, since every hook call is one), and the last run, phase by phase, for
 * {@code tmem dream --status}. Every phase change is also appended to {@code <state>/dream.log}.
 *
 * @param lastSessionScan when the session gate last listed transcripts
 * @param run the latest run, finished or not
 */
record DreamState(Optional<Instant> lastSessionScan, Optional<DreamRun> run) {

  private static final ObjectMapper JSON = new ObjectMapper();

  DreamState {
    requireNonNull(lastSessionScan, "lastSessionScan is null");
    requireNonNull(run, "run is null");
  }

  static final DreamState NONE = new DreamState(Optional.empty(), Optional.empty());

  /** Where the state of a memory directory's consolidation is kept. */
  record Store(Path stateHome, Path memoryDirectory) {
    Store {
      requireNonNull(stateHome, "stateHome is null");
      requireNonNull(memoryDirectory, "memoryDirectory is null");
    }

    Path file() {
      return stateHome.resolve("dream").resolve(key() + ".json");
    }

    /** Locked while the consolidation lock is taken, so tmem processes take it one at a time. */
    Path guard() {
      return stateHome.resolve("dream").resolve(key() + ".guard");
    }

    Path log() {
      return stateHome.resolve("dream.log");
    }

    private String key() {
      return ClaudeLayout.sanitize(memoryDirectory.toAbsolutePath().normalize().toString());
    }

    DreamState load() {
      // Losing the state only loses the status display and one throttle interval.
      Optional<JsonNode> read = StateFiles.readObject(file());
      if (read.isEmpty()) {
        return NONE;
      }
      JsonNode root = read.get();
      Optional<DreamRun> run = Optional.empty();
      JsonNode node = root.path("run");
      if (node.isObject()) {
        List<String> changes = new ArrayList<>();
        node.path("changes").forEach(change -> changes.add(change.asText()));
        Optional<Instant> started = instant(node, "started");
        if (started.isPresent()) {
          run =
              Optional.of(
                  new DreamRun(
                      node.path("pid").asLong(0),
                      node.path("writer").asText(""),
                      started.get(),
                      instant(node, "finished"),
                      node.path("phase").asText(""),
                      node.path("outcome").asText(""),
                      node.path("detail").asText(""),
                      changes));
        }
      }
      return new DreamState(instant(root, "lastSessionScan"), run);
    }

    void save(DreamState state) throws IOException {
      ObjectNode root = JSON.createObjectNode();
      root.put("memoryDirectory", memoryDirectory.toString());
      root.put("lastSessionScan", state.lastSessionScan().map(Instant::toString).orElse(null));
      if (state.run().isPresent()) {
        DreamRun run = state.run().get();
        ObjectNode node = root.putObject("run");
        node.put("pid", run.pid());
        node.put("writer", run.writer());
        node.put("started", run.started().toString());
        node.put("finished", run.finished().map(Instant::toString).orElse(null));
        node.put("phase", run.phase());
        node.put("outcome", run.outcome());
        node.put("detail", run.detail());
        ArrayNode changes = node.putArray("changes");
        run.changes().forEach(changes::add);
      }
      AtomicFiles.write(file(), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    }

    /** One line in {@code dream.log}; lines name phases, counts and files, never content. */
    void log(Instant at, String line) {
      try {
        Files.createDirectories(log().getParent());
        Files.writeString(
            log(),
            at + " " + line + System.lineSeparator(),
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      } catch (IOException unwritable) {
        // The status file still shows the run; a missing log line must not fail it.
      }
    }
  }

  DreamState withScan(Instant at) {
    return new DreamState(Optional.of(at), run);
  }

  DreamState withRun(DreamRun newRun) {
    return new DreamState(lastSessionScan, Optional.of(newRun));
  }

  private static Optional<Instant> instant(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(value.asText()));
    } catch (DateTimeParseException corrupt) {
      return Optional.empty();
    }
  }
}
