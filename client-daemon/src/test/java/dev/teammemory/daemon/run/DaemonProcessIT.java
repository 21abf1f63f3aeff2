package dev.teammemory.daemon.run;

import static dev.teammemory.daemon.testing.Conditions.await;
import static dev.teammemory.daemon.testing.SyncFixture.entries;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.sync.SavedProjects;
import dev.teammemory.daemon.testing.Conditions;
import dev.teammemory.daemon.testing.RecordingProxy;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import dev.teammemory.daemon.testing.TmemCommand;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real {@code tmem} command line in a child process: SIGTERM flush, kill -9, team rm. */
class DaemonProcessIT {

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static ServerProcess server;

  @TempDir Path root;
  private final List<Process> processes = new ArrayList<>();
  private SyncFixture fixture;

  @BeforeAll
  static void startServer() throws Exception {
    server = ServerProcess.start(Files.createTempDirectory("tmem-server-"));
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @BeforeEach
  void setUp() {
    fixture = new SyncFixture(root);
  }

  @AfterEach
  void tearDown() throws Exception {
    for (Process process : processes) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
    fixture.close();
  }

  private Process tmem(String url, Path log, String... arguments) throws IOException {
    return tmemAs(ServerProcess.ALICE, url, log, arguments);
  }

  private Process tmemAs(String token, String url, Path log, String... arguments)
      throws IOException {
    List<String> command = TmemCommand.of(arguments);
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("TMEM_SERVER_URL", url);
    builder.environment().put("TMEM_TOKEN", token);
    builder.environment().put("XDG_STATE_HOME", root.resolve("state").toString());
    builder.environment().put("HOME", root.toString());
    Process process = builder.start();
    processes.add(process);
    return process;
  }

  private boolean pulled() {
    return Conditions.quietly(
        () ->
            SavedProjects.all(root.resolve("state/tmem")).stream()
                .anyMatch(saved -> saved.state().lastPull().isPresent()));
  }

  @Test
  void sigtermFlushesAChangeMadeJustBeforeShutdown() throws Exception {
    String repo = "acme/sigterm";
    Path team = Files.createDirectories(root.resolve("team"));
    Process daemon =
        tmem(
            server.url(),
            root.resolve("daemon.log"),
            "daemon",
            "--team-dir",
            team.toString(),
            "--repo",
            repo);
    await("the daemon pulled", DEADLINE, this::pulled);

    Files.writeString(team.resolve("last-words.md"), "written a moment before SIGTERM\n");
    daemon.destroy();
    assertThat(daemon.waitFor(60, TimeUnit.SECONDS)).isTrue();

    TeamMemoryClient reader = fixture.client(server.url(), ServerProcess.READER);
    assertThat(entries(reader, repo))
        .containsEntry("last-words.md", "written a moment before SIGTERM\n");
    assertThat(Files.readString(root.resolve("state/tmem/daemon.log")))
        .contains("stopping: flushing pending changes")
        .doesNotContain("written a moment before SIGTERM")
        .doesNotContain(ServerProcess.ALICE);
  }

  @Test
  void killDashNineDuringAPushLosesNothingAndDuplicatesNothing() throws Exception {
    String repo = "acme/kill-nine";
    Path team = Files.createDirectories(root.resolve("team"));
    Map<String, String> expected = new HashMap<>();
    for (int i = 0; i < 1000; i++) {
      String key = "t" + (i % 20) + "/note-" + i + ".md";
      String content = ("line of note " + i + "\n").repeat(60);
      Files.createDirectories(team.resolve(key).getParent());
      Files.writeString(team.resolve(key), content);
      expected.put(key, content);
    }
    // Batches and their If-Match chain are the team_memory transport: the proxy plays a server
    // without the Memory Stores API (per-file restarts: SyncTransportContract).
    try (RecordingProxy proxy = RecordingProxy.start(server.url()).withoutMemoryStores()) {
      AtomicInteger puts = new AtomicInteger();
      RecordingProxy.Hold second =
          proxy.holdNext((method, target) -> method.equals("PUT") && puts.incrementAndGet() == 2);
      Process daemon =
          tmem(
              proxy.url(),
              root.resolve("first.log"),
              "daemon",
              "--team-dir",
              team.toString(),
              "--repo",
              repo);
      second.awaitArrival(DEADLINE);

      daemon.destroyForcibly();
      assertThat(daemon.waitFor(30, TimeUnit.SECONDS)).isTrue();
      // The request was already on its way: the server still applies it.
      second.release();
      await("the held batch reached the server", DEADLINE, () -> proxy.puts().size() == 2);

      Process restarted =
          tmem(
              proxy.url(),
              root.resolve("second.log"),
              "daemon",
              "--team-dir",
              team.toString(),
              "--repo",
              repo);
      TeamMemoryClient reader = fixture.client(server.url(), ServerProcess.READER);
      await(
          "all 1,000 files are on the server",
          DEADLINE,
          () -> entries(reader, repo).size() == 1000);
      assertThat(entries(reader, repo)).isEqualTo(expected);
      restarted.destroy();
      assertThat(restarted.waitFor(60, TimeUnit.SECONDS)).isTrue();

      Map<String, Integer> sent = new HashMap<>();
      ObjectMapper json = new ObjectMapper();
      for (RecordingProxy.Exchange put : proxy.puts()) {
        @SuppressWarnings("unchecked")
        Map<String, Object> body = json.readValue(put.body(), Map.class);
        ((Map<?, ?>) body.get("entries"))
            .keySet()
            .forEach(key -> sent.merge((String) key, 1, Integer::sum));
      }
      assertThat(sent).hasSize(1000);
      assertThat(sent.values()).as("no key was sent twice").containsOnly(1);
    }
    try (Connection database = server.database();
        Statement query = database.createStatement();
        ResultSet duplicates =
            query.executeQuery(
                "SELECT count(*) FROM (SELECT v.entry_key FROM memory_entry_version v JOIN repository r ON r.id = v.repository_id"
                    + " WHERE r.slug_key = 'acme/kill-nine' GROUP BY v.entry_key HAVING count(*) > 1) d")) {
      duplicates.next();
      assertThat(duplicates.getInt(1)).isZero();
    }
  }

  @Test
  void teamRmStatusAndSyncWorkFromTheCommandLine() throws Exception {
    String repo = "acme/command-line";
    Path team = Files.createDirectories(root.resolve("team"));
    Files.writeString(team.resolve("keep.md"), "keep\n");
    Files.writeString(team.resolve("drop.md"), "drop\n");
    Files.write(team.resolve("huge.md"), new byte[300_000]);

    Process sync =
        tmem(
            server.url(),
            root.resolve("sync.log"),
            "sync",
            "--team-dir",
            team.toString(),
            "--repo",
            repo);
    assertThat(sync.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String syncOutput = Files.readString(root.resolve("sync.log"));
    assertThat(sync.exitValue()).as(syncOutput).isEqualTo(1);
    assertThat(syncOutput)
        .contains("pushed 2 file(s) in 1 batch(es)")
        .contains("not synced: huge.md — too large (300,000 bytes; the limit is 250,000)");

    Process remove =
        tmem(
            server.url(),
            root.resolve("rm.log"),
            "team",
            "rm",
            "drop.md",
            "--team-dir",
            team.toString(),
            "--repo",
            repo);
    assertThat(remove.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String removeOutput = Files.readString(root.resolve("rm.log"));
    assertThat(remove.exitValue()).as(removeOutput).isZero();
    assertThat(removeOutput)
        .contains("deleted drop.md from " + repo)
        .contains("deleted the local copy");
    TeamMemoryClient reader = fixture.client(server.url(), ServerProcess.READER);
    assertThat(entries(reader, repo)).containsOnlyKeys("keep.md");
    assertThat(team.resolve("drop.md")).doesNotExist();

    Process status =
        tmem(
            server.url(),
            root.resolve("status.log"),
            "status",
            "--format",
            "json",
            "--team-dir",
            team.toString(),
            "--repo",
            repo);
    assertThat(status.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String statusOutput = Files.readString(root.resolve("status.log"), StandardCharsets.UTF_8);
    assertThat(status.exitValue()).as(statusOutput).isZero();
    @SuppressWarnings("unchecked")
    Map<String, Object> parsed = new ObjectMapper().readValue(statusOutput, Map.class);
    @SuppressWarnings("unchecked")
    Map<String, Object> project = ((List<Map<String, Object>>) parsed.get("projects")).get(0);
    assertThat(project)
        .containsEntry("repo", repo)
        .containsEntry("server", server.url())
        .containsEntry("daemon", "not running");
    assertThat(project.get("lastPush")).isNotNull();
    assertThat(project.get("skipped").toString()).contains("huge.md").contains("too_large");
  }

  private static String[] with(String[] where, String... command) {
    List<String> all = new ArrayList<>(List.of(command));
    all.addAll(List.of(where));
    return all.toArray(String[]::new);
  }

  /** Runs a one-off command to its end and returns its output; fails on the wrong exit code. */
  private String run(int exitCode, String name, String... arguments) throws Exception {
    Path log = root.resolve(name + ".log");
    Process process = tmem(server.url(), log, arguments);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(output).isEqualTo(exitCode);
    return output;
  }

  @Test
  void whatTheServerReplacedIsKeptNamedAndRestoredAndTextThatIsNotUtf8IsNamedNotSent()
      throws Exception {
    String repo = "acme/kept";
    Path team = Files.createDirectories(root.resolve("team"));
    Files.writeString(team.resolve("a.md"), "mine\n");
    byte[] latin1 = {'C', 'a', 'f', (byte) 0xe9, '\n'};
    Files.write(team.resolve("latin1.md"), latin1);
    String[] where = {"--team-dir", team.toString(), "--repo", repo};

    String first = run(1, "sync-1", with(where, "sync"));
    assertThat(first)
        .contains("pushed 1 file(s)")
        .contains("not synced: latin1.md — not UTF-8: save it as UTF-8");
    TeamMemoryClient bob = fixture.client(server.url(), ServerProcess.BOB);
    assertThat(bob.put(repo, Map.of("a.md", "bob's\n"), Optional.empty()))
        .isInstanceOf(Response.Ok.class);
    run(1, "sync-2", with(where, "sync"));
    assertThat(team.resolve("a.md")).hasContent("bob's\n");
    assertThat(Files.readAllBytes(team.resolve("latin1.md"))).isEqualTo(latin1);
    TeamMemoryClient reader = fixture.client(server.url(), ServerProcess.READER);
    assertThat(entries(reader, repo)).containsOnlyKeys("a.md");

    String status = run(0, "status", with(where, "status"));
    assertThat(status)
        .contains(
            "latin1.md — not UTF-8: save it as UTF-8 (the first byte that is not is at offset 3)")
        .contains("kept today: 1 file(s) kept before the server replaced or deleted them: a.md");
    String list = run(0, "restore-list", with(where, "team", "restore"));
    assertThat(list).contains("a.md  (5 bytes)");
    String restored = run(0, "restore", with(where, "team", "restore", "a.md"));
    assertThat(restored).contains("restored a.md as kept at ");
    assertThat(team.resolve("a.md")).hasContent("mine\n");
    // Bob's version, replaced by the restore, is kept in turn.
    assertThat(run(0, "restore-list-2", with(where, "team", "restore")))
        .contains("a.md  (6 bytes)");
  }

  @Test
  void plainStatusFromASecondTerminalShowsTheFolderARunningDaemonServesUnregistered()
      throws Exception {
    String repo = "acme/demo-like";
    Path team = Files.createDirectories(root.resolve("demo-team"));
    Files.writeString(team.resolve("MEMORY.md"), "# Team memory\n");
    // As ./tmem demo runs it: a folder named on the command line, in the user's state home.
    Process daemon =
        tmem(
            server.url(),
            root.resolve("demo-daemon.log"),
            "daemon",
            "--team-dir",
            team.toString(),
            "--repo",
            repo);
    await("the daemon pulled", DEADLINE, this::pulled);

    // A one-off sync of the folder the daemon serves has nothing to do, and nothing failed.
    String besideTheDaemon =
        run(0, "sync-beside", "sync", "--team-dir", team.toString(), "--repo", repo);
    assertThat(besideTheDaemon)
        .contains("(pid " + daemon.pid() + ") is already syncing " + team)
        .contains("there is nothing to do here");

    Process status = tmem(server.url(), root.resolve("demo-status.log"), "status");
    assertThat(status.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String statusOutput = Files.readString(root.resolve("demo-status.log"));
    assertThat(status.exitValue()).as(statusOutput).isZero();
    assertThat(statusOutput)
        .contains(repo + "  " + team)
        .contains("  server:     " + server.url())
        .contains("  daemon:     running (pid " + daemon.pid() + ")");

    daemon.destroy();
    assertThat(daemon.waitFor(60, TimeUnit.SECONDS)).isTrue();
    Process after = tmem(server.url(), root.resolve("after-status.log"), "status");
    assertThat(after.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(after.exitValue()).isEqualTo(2);
    assertThat(Files.readString(root.resolve("after-status.log")))
        .contains("no projects registered");
  }

  @Test
  void aPushRefusedUnderAStaticTokenAdvisesAskingTheServersAdminNotAGitHubLogin() throws Exception {
    String repo = "acme/read-only";
    Path team = Files.createDirectories(root.resolve("read-only-team"));
    Files.writeString(team.resolve("mine.md"), "a reader's note\n");
    Path log = root.resolve("reader-sync.log");

    Process sync =
        tmemAs(
            ServerProcess.READER,
            server.url(),
            log,
            "sync",
            "--team-dir",
            team.toString(),
            "--repo",
            repo);
    assertThat(sync.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(sync.exitValue()).as(output).isEqualTo(1);
    assertThat(output)
        .contains(
            "no write access to "
                + repo
                + " (403): this server's tokens are set by its admin; ask them to give your token"
                + " write access to "
                + repo)
        .doesNotContain("tmem login");
  }

  @Test
  void syncLogsOneLinePerEventInTheDaemonsFormat() throws Exception {
    Path team = Files.createDirectories(root.resolve("team"));
    Files.writeString(team.resolve("MEMORY.md"), "# Team memory\n");

    Process sync =
        tmem(
            server.url(),
            root.resolve("sync.log"),
            "sync",
            "--team-dir",
            team.toString(),
            "--repo",
            "acme/log-format");
    assertThat(sync.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String output = Files.readString(root.resolve("sync.log"));
    assertThat(sync.exitValue()).as(output).isZero();

    List<String> logLines =
        output.lines().filter(line -> line.matches("^\\d{4}-\\d{2}-\\d{2}T.*")).toList();
    assertThat(logLines).as(output).isNotEmpty();
    assertThat(logLines)
        .allMatch(
            line ->
                line.matches(
                    "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z (INFO|WARNING|SEVERE) .+"));
    // java.util.logging's default puts the source on one line and "INFO: message" on the next.
    assertThat(output).doesNotContain("dev.teammemory.daemon.sync.").doesNotContain("INFO: ");
  }

  @Test
  void withTmemLogFormatJsonSyncLogsOneJsonObjectALine() throws Exception {
    Path team = Files.createDirectories(root.resolve("team"));
    Files.writeString(team.resolve("MEMORY.md"), "# Team memory\n");
    List<String> command =
        TmemCommand.of("sync", "--team-dir", team.toString(), "--repo", "acme/json-log");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("TMEM_SERVER_URL", server.url());
    builder.environment().put("TMEM_TOKEN", ServerProcess.ALICE);
    builder.environment().put("XDG_STATE_HOME", root.resolve("state").toString());
    builder.environment().put("TMEM_LOG_FORMAT", "json");
    builder.redirectError(root.resolve("json.log").toFile());
    builder.redirectOutput(root.resolve("json.out").toFile());
    Process sync = builder.start();
    processes.add(sync);
    assertThat(sync.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String log = Files.readString(root.resolve("json.log"));
    assertThat(sync.exitValue()).as(log).isZero();

    List<String> lines = log.lines().toList();
    assertThat(lines).isNotEmpty();
    ObjectMapper json = new ObjectMapper();
    for (String line : lines) {
      @SuppressWarnings("unchecked")
      Map<String, Object> parsed = json.readValue(line, Map.class);
      assertThat(parsed).containsKeys("time", "level", "logger", "message");
      assertThat(parsed.get("logger").toString()).startsWith("dev.teammemory.daemon.");
    }
    assertThat(log).doesNotContain(ServerProcess.ALICE).doesNotContain("# Team memory");
  }

  @Test
  void anUnknownTmemLogFormatIsAUsageError() throws Exception {
    List<String> command = TmemCommand.of("status");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("XDG_STATE_HOME", root.resolve("state").toString());
    builder.environment().put("TMEM_LOG_FORMAT", "xml");
    Process process = builder.start();
    processes.add(process);
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isEqualTo(2);
    assertThat(output.strip()).isEqualTo("tmem: TMEM_LOG_FORMAT must be text or json, not 'xml'");
  }

  @Test
  void addRegistersAGitCheckoutAndSyncServesItWithoutFlags() throws Exception {
    Path checkout = Files.createDirectories(root.resolve("src/widgets"));
    for (List<String> git :
        List.of(
            List.of("git", "init", "-q", checkout.toString()),
            List.of(
                "git",
                "-C",
                checkout.toString(),
                "remote",
                "add",
                "origin",
                "git@github.com:acme/widgets.git"))) {
      assertThat(new ProcessBuilder(git).inheritIO().start().waitFor()).isZero();
    }
    Process add = tmem(server.url(), root.resolve("add.log"), "add", checkout.toString());
    assertThat(add.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String addOutput = Files.readString(root.resolve("add.log"));
    assertThat(add.exitValue()).as(addOutput).isZero();
    // No Claude Code on this machine (no ~/.claude): the team folder is recorded under tmem's own
    // state home (sync.TeamFolderHome).
    assertThat(addOutput)
        .startsWith("registered acme/widgets: " + root.resolve("state/tmem/memory"));
    Path team =
        Path.of(
            addOutput.substring(
                "registered acme/widgets: ".length(), addOutput.indexOf(" (a running")));
    assertThat(team.getFileName()).as(team.toString()).isEqualTo(Path.of("team"));

    Files.createDirectories(team);
    Files.writeString(team.resolve("MEMORY.md"), "# Team memory\n");
    Process sync = tmem(server.url(), root.resolve("sync-registered.log"), "sync");
    assertThat(sync.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String syncOutput = Files.readString(root.resolve("sync-registered.log"));
    assertThat(sync.exitValue()).as(syncOutput).isZero();
    TeamMemoryClient reader = fixture.client(server.url(), ServerProcess.READER);
    assertThat(entries(reader, "acme/widgets")).containsEntry("MEMORY.md", "# Team memory\n");
  }

  @Test
  void syncWithoutAServerUrlIsAUsageErrorThatSaysWhatToSet() throws Exception {
    List<String> command =
        TmemCommand.of("sync", "--team-dir", root.toString(), "--repo", "acme/widgets");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("TMEM_SERVER_URL");
    builder.environment().put("XDG_STATE_HOME", root.resolve("state").toString());
    Process process = builder.start();
    processes.add(process);
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isEqualTo(2);
    assertThat(output.strip())
        .isEqualTo(
            "tmem: no team-memory server configured: run tmem login --server URL with your team's"
                + " server, or set TMEM_SERVER_URL (for example"
                + " export TMEM_SERVER_URL=https://team-memory.example.com)");
  }
}
