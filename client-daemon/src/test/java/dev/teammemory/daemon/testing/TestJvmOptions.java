package dev.teammemory.daemon.testing;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The JVM options the build gives the processes its integration tests start (set in the parent pom:
 * quick to start; servers map a class-data archive per test fork); none when a test runs outside
 * the build.
 */
final class TestJvmOptions {

  private TestJvmOptions() {}

  /**
   * For the packaged server ({@code tmem.test.server-jvm}, and the fork's class-data archive in
   * {@code tmem.test.server-archive}).
   */
  static List<String> server() {
    return Stream.concat(
            of("tmem.test.server-jvm").stream(), of("tmem.test.server-archive").stream())
        .toList();
  }

  /** For tmem commands and daemons ({@code tmem.test.tmem-jvm}). */
  static List<String> tmem() {
    return of("tmem.test.tmem-jvm");
  }

  private static List<String> of(String property) {
    return Arrays.stream(System.getProperty(property, "").trim().split("\\s+"))
        .filter(option -> !option.isEmpty())
        .toList();
  }
}
