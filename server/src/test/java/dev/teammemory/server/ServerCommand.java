package dev.teammemory.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line that starts the packaged server jar in a test: this JVM's Java, a heap cap, and
 * the options the build gives the processes its integration tests start (set in the parent pom:
 * quick to start, and a class-data archive per test fork); none when a test runs outside the build.
 */
public final class ServerCommand {

  private ServerCommand() {}

  /** A server expected to start: it maps the fork's class-data archive, or writes it at exit. */
  public static List<String> of(String maxHeap, Path jar) {
    return command(maxHeap, jar, "tmem.test.server-jvm", "tmem.test.server-archive");
  }

  /**
   * A server expected to stop at boot: without the archive, which the first JVM to exit writes and
   * which would then hold only the few classes a failed boot loads.
   */
  public static List<String> stoppingAtBoot(String maxHeap, Path jar) {
    return command(maxHeap, jar, "tmem.test.server-jvm");
  }

  private static List<String> command(String maxHeap, Path jar, String... optionProperties) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("-Xmx" + maxHeap);
    for (String property : optionProperties) {
      Arrays.stream(System.getProperty(property, "").trim().split("\\s+"))
          .filter(option -> !option.isEmpty())
          .forEach(command::add);
    }
    command.add("-jar");
    command.add(jar.toString());
    return command;
  }
}
