package dev.teammemory.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ChecksumsTest {

  @Test
  void entryChecksumsMatchTheProtocolTestVectors() {
    assertThat(Checksums.ofContent(""))
        .isEqualTo("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        .isEqualTo(Checksums.EMPTY);
    assertThat(Checksums.ofContent("# Team memory\n"))
        .isEqualTo("sha256:2393b496b31a8d584745ed4fc85957f4c3055a36169db110deefeccc43b46cba");
    assertThat(Checksums.ofContent("é"))
        .isEqualTo("sha256:4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
  }

  @Test
  void repositoryChecksumHashesSortedKeyTabChecksumLines() {
    String a = Checksums.ofContent("a");
    String b = Checksums.ofContent("b");
    String expected = Checksums.ofContent("A.md\t" + a + "\nb.md\t" + b + "\n");

    assertThat(Checksums.ofRepository(Map.of("b.md", b, "A.md", a))).isEqualTo(expected);
    assertThat(Checksums.ofRepository(Map.of())).isEqualTo(Checksums.EMPTY);
  }

  @Test
  void repositoryChecksumSortsByUtf8BytesNotUtf16Units() {
    // U+FF21 (3 UTF-8 bytes, EF BC A1) sorts before U+1F600 (F0 9F 98 80) in UTF-8 byte order,
    // but after it in UTF-16 code-unit order (FF21 > D83D).
    String fullWidth = "\uFF21.md";
    String emoji = "\uD83D\uDE00.md";
    String c = Checksums.ofContent("x");
    String expected = Checksums.ofContent(fullWidth + "\t" + c + "\n" + emoji + "\t" + c + "\n");

    assertThat(Checksums.ofRepository(Map.of(emoji, c, fullWidth, c))).isEqualTo(expected);
  }

  @Test
  void invalidUtf8IsDecodedWithReplacementCharacters() {
    byte[] bytes = {'a', (byte) 0xff, 'b'};
    assertThat(Checksums.isValidUtf8(bytes)).isFalse();
    assertThat(Checksums.decodeLeniently(bytes)).isEqualTo("a\uFFFDb");
  }
}
