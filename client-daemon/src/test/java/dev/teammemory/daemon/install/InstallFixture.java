package dev.teammemory.daemon.install;

import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine;

/**
 * A temporary home to install into: hosts over it, a {@code bin} folder for stand-in service
 * managers (real shell scripts that record their arguments), and a way to run a command the way
 * {@code tmem} does, with its streams captured.
 */
final class InstallFixture {

  final Path home;
  final Path bin;
  final Path calls;
  final Path java;
  final Path jar;
  final Map<String, String> variables = new HashMap<>();
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  InstallFixture(Path home) throws IOException {
    this.home = home;
    this.bin = Files.createDirectories(home.resolve("bin"));
    this.calls = home.resolve("calls.txt");
    this.java = home.resolve("jdk/bin/java");
    this.jar = home.resolve("opt/tmem/tmem.jar");
    variables.put("PATH", bin.toString());
  }

  Host linux() {
    return host("Linux");
  }

  Host mac() {
    return host("Mac OS X");
  }

  Host host(String operatingSystem) {
    return new Host(new Environment(variables, home, home), operatingSystem, java, jar);
  }

  Host withJar(String operatingSystem, Path otherJar) {
    return new Host(new Environment(variables, home, home), operatingSystem, java, otherJar);
  }

  /** Runs the command as {@code tmem} would: a UserError becomes "tmem: message" and its code. */
  int run(Object command, String... args) {
    CommandLine commandLine = new CommandLine(command);
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.setExecutionExceptionHandler(
        (exception, line, parseResult) -> {
          if (exception instanceof UserError userError) {
            line.getErr().println("tmem: " + userError.getMessage());
            return userError.exitCode();
          }
          throw exception;
        });
    return commandLine.execute(args);
  }

  /** A stand-in for systemctl or launchctl that appends its arguments to {@link #calls}. */
  void fakeControlCommand(String name, int exitCode, String output) throws IOException {
    executable(
        bin.resolve(name),
        "#!/bin/sh\n"
            + "echo \"$*\" >> '"
            + calls
            + "'\n"
            + (output.isEmpty() ? "" : "echo '" + output + "'\n")
            + "exit "
            + exitCode
            + "\n");
  }

  String calls() throws IOException {
    return Files.exists(calls) ? Files.readString(calls) : "";
  }

  static void executable(Path path, String script) throws IOException {
    Files.createDirectories(path.getParent());
    Files.writeString(path, script);
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
  }
}
