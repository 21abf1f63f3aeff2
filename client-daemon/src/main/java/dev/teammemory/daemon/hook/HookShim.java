package dev.teammemory.daemon.hook;

import dev.teammemory.daemon.files.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The command each installed hook runs: a small POSIX {@code sh} script in {@code <state
 * home>/bin/tmem-hook} that asks the running daemon's local API for the hook's answer with {@code
 * curl}, and starts tmem's JVM only when no daemon answers. A JVM costs the agent half a second per
 * hook; a request to a running daemon costs milliseconds.
 *
 * <p>The script follows the hook contract in every case: when the daemon is not running (no address
 * file, nobody listening on its port) or curl is missing, it runs {@code tmem hook <event>} with
 * the same input; when the daemon answers with an error or too late, it writes one line to {@code
 * hooks.log} and exits 0 with nothing, so the agent goes on. The token reaches curl through a 0600
 * config file ({@code -K}), never through the process's arguments.
 */
final class HookShim {

  static final String FILE_NAME = "tmem-hook";

  /** Longer than a model-bounded recall, shorter than the agent's own 60 s hook timeout. */
  static final int MAX_SECONDS = 50;

  private HookShim() {}

  static Path file(Path stateHome) {
    return stateHome.resolve("bin").resolve(FILE_NAME);
  }

  /** The command a hook runs for {@code subcommand}, with the shim's options. */
  static String command(Path stateHome, String subcommand, boolean privateIndex) {
    return HookInstallCommand.shellQuoted(file(stateHome).toString())
        + " "
        + subcommand
        + (privateIndex && subcommand.equals("session-start") ? " --private-index" : "");
  }

  /** Whether a hook command is one a shim in {@code stateHome} runs. */
  static boolean runs(Path stateHome, String command) {
    return command.startsWith(HookInstallCommand.shellQuoted(file(stateHome).toString()) + " ");
  }

  /** Deletes the shim; whether there was one. */
  static boolean delete(Path stateHome) throws IOException {
    return Files.deleteIfExists(file(stateHome));
  }

  /** Writes the shim, executable by its owner; a shim already there is replaced. */
  static Path write(Path stateHome, String fallback) throws IOException {
    Path file = file(stateHome);
    Files.createDirectories(file.getParent());
    // Executable from the moment it exists: a hook firing during an install never finds it
    // without its x bit.
    AtomicFiles.write(
        file,
        script(stateHome, fallback).getBytes(StandardCharsets.UTF_8),
        PosixFilePermissions.fromString("rwx------"));
    return file;
  }

  /**
   * @param fallback how to start tmem, as shell words ({@code '/usr/bin/java' -jar
   *     '/opt/tmem.jar'})
   */
  static String script(Path stateHome, String fallback) {
    return """
        #!/bin/sh
        # tmem's hook shim, written by `tmem hook install` (and rewritten by every install).
        # Claude Code runs it with a hook's name (session-start, user-prompt, pre-compact, stop)
        # and the hook's JSON on stdin; Codex's hooks add --agent codex. It asks the running tmem
        # daemon for the answer over its local API (127.0.0.1; the token goes to curl in a 0600
        # config file) and runs tmem itself when no daemon answers. It never holds the agent up: any other failure is one line in
        # hooks.log, no answer, and exit 0.
        state=%1$s
        event=$1
        shift
        query=
        previous=
        agent=
        for option in "$@"; do
          if [ "$option" = --private-index ]; then query='?private-index=true'; fi
          if [ "$previous" = --agent ] && [ "$option" = codex ]; then query='?agent=codex'; agent=codex; fi
          previous=$option
        done
        input=$(cat)

        give_up() {
          printf '%%s tmem-hook %%s: %%s\\n' "$(date -u +%%Y-%%m-%%dT%%H:%%M:%%SZ)" "$event" "$1" \\
            >>"$state/hooks.log" 2>/dev/null
          exit 0
        }

        fallback() {
          # tmem hook <event> takes Claude Code's options only; Codex's input reads the same.
          if [ "$agent" = codex ]; then
            printf '%%s' "$input" | %2$s hook "$event"
          else
            printf '%%s' "$input" | %2$s hook "$event" "$@"
          fi
          status=$?
          case $status in
            0) exit 0 ;;
            126|127) give_up "no daemon answered and tmem could not be started (exit $status); run tmem hook install again" ;;
            *) give_up "no daemon answered and tmem hook $event failed (exit $status); see the lines above in this log or run it by hand" ;;
          esac
        }

        command -v curl >/dev/null 2>&1 || fallback "$@"
        [ -r "$state/api.json" ] && [ -r "$state/api.curl" ] || fallback "$@"
        address=
        read -r address <"$state/api.json" || [ -n "$address" ] || fallback "$@"
        url=${address#*\\"url\\":\\"}
        url=${url%%%%\\"*}
        case $url in
          http://127.0.0.1:*) ;;
          *) fallback "$@" ;;
        esac
        answer=$(printf '%%s' "$input" | curl --silent --fail --max-time %3$d \\
          --config "$state/api.curl" --header 'Content-Type: application/json' \\
          --data-binary @- "$url/v1/hooks/$event$query")
        status=$?
        case $status in
          0) if [ -n "$answer" ]; then printf '%%s\\n' "$answer"; fi ;;
          7) fallback "$@" ;;
          *) give_up "the daemon at $url gave no answer (curl exit $status)" ;;
        esac
        exit 0
        """
        .formatted(HookInstallCommand.shellQuoted(stateHome.toString()), fallback, MAX_SECONDS);
  }
}
