package dev.teammemory.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SDK brings okhttp 4 and the project uses okhttp 5, under the same class names: two jars of
 * them on one classpath would let either version win by order. The build excludes the SDK's; this
 * checks that exactly one okhttp is left where the suite runs.
 */
class SingleOkHttpTest {

  @Test
  void exactlyOneOkHttpIsOnTheClasspath() throws IOException {
    List<URL> copies =
        Collections.list(getClass().getClassLoader().getResources("okhttp3/OkHttpClient.class"));
    assertThat(copies).as("jars holding okhttp3.OkHttpClient").hasSize(1);
    assertThat(copies.getFirst().toString()).contains("okhttp-jvm");
  }
}
