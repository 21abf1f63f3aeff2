package dev.teammemory.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UnicodeTextTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "plain ascii",
        "caf\u00e9 \u20ac",
        "rocket \uD83D\uDE80 at the end \uD83D\uDE80",
        "format characters are text: \u202E\u200B"
      })
  void unicodeTextWithoutNulIsStorableAndItsLengthIsWhatUtf8Encodes(String text) {
    assertThat(UnicodeText.violation(text)).isEmpty();
    assertThat(UnicodeText.utf8Length(text))
        .isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
  }

  @ParameterizedTest
  @ValueSource(strings = {"\uD800", "a\uD800b", "a\uDC00", "\uDC00\uD800", "ok \uD83D\uDE80\uD83D"})
  void anUnpairedSurrogateIsNotUnicodeTextAndHasNoUtf8Length(String text) {
    assertThat(UnicodeText.violation(text))
        .contains("holds an unpaired UTF-16 surrogate, which is not Unicode text");
    assertThat(UnicodeText.isUnicode(text)).isFalse();
    assertThatThrownBy(() -> UnicodeText.utf8Length(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unpaired UTF-16 surrogate at index ");
  }

  @Test
  void aNulCannotBeStoredThoughItIsUnicode() {
    assertThat(UnicodeText.violation("a\u0000b"))
        .contains("holds a NUL character (U+0000), which the server cannot store");
    assertThat(UnicodeText.isUnicode("a\u0000b")).isTrue();
    assertThat(UnicodeText.utf8Length("a\u0000b")).isEqualTo(3);
  }

  @Test
  void theSurrogateIsNamedFirstWhenTextHoldsBoth() {
    assertThat(UnicodeText.violation("\u0000\uD800")).get().asString().contains("surrogate");
  }
}
