package dev.teammemory.daemon.testing;

import java.util.ArrayList;
import java.util.List;

/** The command line of a real {@code tmem} process: this JVM's Java and the test class path. */
public final class TmemCommand {

  private TmemCommand() {}

  /**
   * {@code java -Xmx256m <the build's test JVM options> -cp <class path>
   * dev.teammemory.daemon.cli.Tmem <arguments>}.
   */
  public static List<String> of(String... arguments) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("-Xmx256m");
    command.addAll(TestJvmOptions.tmem());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("dev.teammemory.daemon.cli.Tmem");
    command.addAll(List.of(arguments));
    return command;
  }
}
