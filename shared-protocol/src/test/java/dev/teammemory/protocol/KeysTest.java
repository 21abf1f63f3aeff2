package dev.teammemory.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeysTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "MEMORY.md",
        "testing/no-mocks.md",
        "a..b.md",
        "100%.md",
        "notes/%zz.md",
        "caf\u00e9.md",
        "deep/er/still/deeper.md",
        "with space.md"
      })
  void acceptsOrdinaryKeys(String key) {
    assertThat(Keys.violation(key)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "/etc/passwd",
        "..",
        "../escape.md",
        "a/../../b.md",
        "./a.md",
        "a//b.md",
        "a/",
        "a\\b.md",
        "a\u0000b.md",
        "a\nb.md",
        "a\u007fb.md",
        "%2e%2e/escape.md",
        "a%2fb.md",
        "..%2fescape.md",
        "a%5cb.md",
        "a%00.md",
        "\uFF0E\uFF0E/escape.md",
        "a\uFF0Fb.md",
        "a\uFF3Cb.md",
        "a\uD800b.md",
        "\uDC00.md"
      })
  void rejectsTraversalEncodedSeparatorsAndControlCharacters(String key) {
    assertThat(Keys.violation(key)).isPresent();
  }

  @org.junit.jupiter.api.Test
  void anUnpairedSurrogateIsNotAKeyAndCannotCountAsFewerBytes() {
    assertThat(Keys.violation("x\uD800.md"))
        .contains("key holds an unpaired UTF-16 surrogate, which is not Unicode text");
    // Encoded, each lone surrogate would become one '?' byte and slip under the byte limit.
    assertThat(Keys.violation("\uD800".repeat(300))).isPresent();
  }

  @org.junit.jupiter.api.Test
  void rejectsKeysLongerThan512Utf8Bytes() {
    assertThat(Keys.violation("a".repeat(512))).isEmpty();
    assertThat(Keys.violation("a".repeat(513))).contains("key is longer than 512 UTF-8 bytes");
    assertThat(Keys.violation("\u00e9".repeat(257))).isPresent();
  }
}
