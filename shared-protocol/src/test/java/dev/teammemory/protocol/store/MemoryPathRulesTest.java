package dev.teammemory.protocol.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.Keys;
import org.junit.jupiter.api.Test;

class MemoryPathRulesTest {

  @Test
  void anOrdinaryMemoryIsAccepted() {
    assertThat(MemoryPathRules.violation("/topics/build.md")).isEmpty();
    assertThat(MemoryPathRules.accepts("topics/build.md", "x".repeat(102_400))).isTrue();
  }

  @Test
  void contentOverTheApisLimitIsNotAccepted() {
    assertThat(MemoryPathRules.accepts("big.md", "x".repeat(102_401))).isFalse();
    // Counted in UTF-8 bytes: 34,134 three-byte characters are 102,402 bytes.
    assertThat(MemoryPathRules.accepts("big.md", "€".repeat(34_134))).isFalse();
  }

  @Test
  void keysTeamMemoryTakesMayBreakARuleOnlyTheApiHas() {
    String deep = "d/".repeat(20) + "deep.md";
    String formatCharacter = "zero\u200Bwidth.md";
    String decomposed = "cafe\u0301.md";
    for (String key : new String[] {deep, formatCharacter, decomposed}) {
      assertThat(Keys.isValid(key)).as(key).isTrue();
      assertThat(MemoryPathRules.accepts(key, "x\n")).as(key).isFalse();
    }
    assertThat(MemoryPathRules.violation("/" + deep))
        .contains("path must be at most 20 segments deep");
    assertThat(MemoryPathRules.violation("/" + formatCharacter))
        .contains("path must not contain control or format characters");
    assertThat(MemoryPathRules.violation("/" + decomposed)).contains("path must be NFC-normalized");
    assertThat(MemoryPathRules.accepts("d/".repeat(19) + "deep.md", "x\n")).isTrue();
  }

  @Test
  void eachShapeRuleHasItsOwnMessage() {
    assertThat(MemoryPathRules.violation("")).contains("path is required");
    assertThat(MemoryPathRules.violation("a.md")).contains("path must start with /");
    assertThat(MemoryPathRules.violation("/a/"))
        .contains("path must name a memory, not end with /");
    assertThat(MemoryPathRules.violation("/a//b.md"))
        .contains("path must not contain empty segments");
    assertThat(MemoryPathRules.violation("/a/../b.md"))
        .contains("path must not contain . or .. segments");
    assertThat(MemoryPathRules.violation("/" + "a".repeat(1024)))
        .contains("path must be at most 1024 bytes");
  }

  @Test
  void aPathOrContentThatIsNotStorableTextIsRefused() {
    assertThat(MemoryPathRules.violation("/x\uD800.md"))
        .contains("path must be Unicode text, without unpaired UTF-16 surrogates");
    assertThat(MemoryPathRules.violation("/x\u0000.md"))
        .contains("path must not contain control or format characters");
    assertThat(MemoryPathRules.accepts("ok.md", "a\uD800b")).isFalse();
    assertThat(MemoryPathRules.accepts("ok.md", "a\u0000b")).isFalse();
    // 100,000 lone surrogates would encode to as many '?' bytes; they are not text at all.
    assertThat(MemoryPathRules.accepts("ok.md", "\uD800".repeat(100_000))).isFalse();
  }
}
