package dev.teammemory.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class TmemTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int tmem(String... args) {
    return Tmem.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void helpListsTheCommandAndExitsZero() {
    assertThat(tmem("--help")).isZero();
    assertThat(out.toString()).startsWith("Usage: tmem").contains("--version");
  }

  @Test
  void versionNamesTheProgram() {
    assertThat(tmem("--version")).isZero();
    assertThat(out.toString()).startsWith("tmem ");
  }

  @Test
  void unknownCommandIsAUsageErrorWithExitCodeTwo() {
    assertThat(tmem("frobnicate")).isEqualTo(2);
    assertThat(err.toString()).contains("Unmatched argument at index 0: 'frobnicate'");
  }
}
