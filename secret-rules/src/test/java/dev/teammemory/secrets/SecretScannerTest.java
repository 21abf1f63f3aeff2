package dev.teammemory.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SecretScannerTest {

  private static final Random RANDOM = new Random(20_260_101L);
  private static final String BASE62 = ExampleText.alphabet("alnum");

  private final SecretScanner scanner = SecretScanner.defaultRules();

  private static String githubPat() {
    return "ghp_" + ExampleText.random(BASE62, 36, RANDOM);
  }

  @Test
  void findingNamesRuleLineColumnAndFingerprintButNeverTheSecret() {
    String token = githubPat();
    String text = "# Setup\n\nexport GITHUB_TOKEN=" + token + "\n";

    List<Finding> findings = scanner.scan(text);

    assertThat(findings)
        .containsExactly(
            new Finding("github-pat", "GitHub PAT", 3, 21, Finding.fingerprintOf(token)));
    assertThat(findings.toString()).doesNotContain(token).doesNotContain(token.substring(4));
  }

  @Test
  void columnCountsUtf16CodeUnitsSoACharacterOutsideTheBmpCountsTwo() {
    String token = githubPat();

    List<Finding> findings = scanner.scan("caf\u00e9 \uD83D\uDE80 " + token);

    assertThat(findings)
        .extracting(Finding::line, Finding::column)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(1, 9));
  }

  @Test
  void theSameSecretInTwoPlacesHasOneFingerprintAndAnotherSecretAnother() {
    String token = githubPat();
    String other = githubPat();

    List<Finding> findings = scanner.scan(token + "\n" + other + "\n\n" + token);

    assertThat(findings).extracting(Finding::line).containsExactly(1, 2, 4);
    assertThat(findings.get(0).fingerprint())
        .isEqualTo(findings.get(2).fingerprint())
        .isNotEqualTo(findings.get(1).fingerprint())
        .hasSize(12);
  }

  @Test
  void fingerprintIsTheStartOfTheSha256OfTheSecret() {
    assertThat(Finding.fingerprintOf("")).isEqualTo("e3b0c44298fc");
  }

  @Test
  void redactReplacesOnlyTheSecretAndKeepsItsContext() {
    String token = githubPat();
    String awsKey = "AKIA" + ExampleText.random(ExampleText.alphabet("base32"), 16, RANDOM);

    String redacted = scanner.redact("token: " + token + "\naws = " + awsKey + " # prod\n");

    assertThat(redacted).isEqualTo("token: [REDACTED]\naws = [REDACTED] # prod\n");
  }

  @Test
  void redactReturnsCleanTextUnchanged() {
    String text = "Nothing to see: AKIAIOSFODNN7EXAMPLE, ghp_<token>.";

    assertThat(scanner.redact(text)).isSameAs(text);
  }

  @Test
  void aGitleaksAllowCommentExemptsNothingUnlessTheScannerHonoursIt() {
    String allowed = githubPat();
    String reported = githubPat();
    String text = markedAllowedThenNot(allowed, reported);

    assertThat(scanner.honoursAllowComments()).isFalse();
    assertThat(scanner.scan(text))
        .extracting(Finding::line, Finding::allowed)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1, false),
            org.assertj.core.groups.Tuple.tuple(2, false));
    assertThat(scanner.redact(text)).doesNotContain(allowed).doesNotContain(reported);
  }

  @Test
  void aScannerThatHonoursAllowCommentsReportsTheMarkedLineAsAllowedAndOnlyThatLine() {
    String allowed = githubPat();
    String reported = githubPat();
    String text = markedAllowedThenNot(allowed, reported);
    SecretScanner honouring = scanner.honouringAllowComments();

    assertThat(honouring.honoursAllowComments()).isTrue();
    assertThat(honouring.scan(text))
        .extracting(Finding::line, Finding::allowed)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1, true),
            org.assertj.core.groups.Tuple.tuple(2, false));
    assertThat(honouring.redact(text)).contains(allowed).doesNotContain(reported);
    assertThat(honouring.honouringAllowComments()).isSameAs(honouring);
  }

  /** Two lines: the first, holding {@code allowed}, marked gitleaks:allow; the second not. */
  private static String markedAllowedThenNot(String allowed, String reported) {
    return "a = \"" + allowed + "\" // gitleaks:allow\nb = \"" + reported + "\"\n";
  }

  @Test
  void aTokenNextToAnUnderscoreIsFoundAsMarkdownBoldOrAfterAName() {
    String token = githubPat();

    for (String text :
        List.of(
            "the token is __" + token + "__ here",
            "GITHUB_TOKEN_" + token,
            token + "_suffix",
            "_" + token,
            "\uD83D\uDE80" + token + "\uD83D\uDE80")) {
      assertThat(scanner.scan(text))
          .as(text)
          .extracting(Finding::ruleId, Finding::fingerprint)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("github-pat", Finding.fingerprintOf(token)));
    }
    assertThat(scanner.scan("x" + token)).isEmpty();
    assertThat(scanner.scan(token + "x")).isEmpty();
  }

  @Test
  void twoTokensSeparatedByOneCharacterAreBothFound() {
    String first = "AKIA" + ExampleText.random(ExampleText.alphabet("base32"), 16, RANDOM);
    String second = "AKIA" + ExampleText.random(ExampleText.alphabet("base32"), 16, RANDOM);

    assertThat(scanner.scan(first + " " + second))
        .extracting(Finding::column)
        .containsExactly(1, first.length() + 2);
    assertThat(scanner.scan(first + "_" + second)).hasSize(2);
  }

  @Test
  void placeholdersAreNotSecrets() {
    String text =
        """
        GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
        AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE
        AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX
        SLACK_WEBHOOK=https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX
        ANTHROPIC_API_KEY=<your-token>
        """;

    assertThat(SecretScanner.allRules().scan(text)).isEmpty();
  }

  @Test
  void proseAndCodeAboutSecretsRaiseNothing() throws IOException {
    String text = resource("prose-and-code.md");

    assertThat(scanner.scan(text)).isEmpty();
    assertThat(SecretScanner.allRules().scan(text)).isEmpty();
  }

  @Test
  void uuidsShasAndBase64ImagesRaiseNothing() {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 2_000; i++) {
      text.append(java.util.UUID.nameUUIDFromBytes(new byte[] {(byte) i, (byte) (i >> 8)}))
          .append(' ')
          .append(ExampleText.random("0123456789abcdef", 40, RANDOM))
          .append(' ')
          .append(ExampleText.random("0123456789abcdef", 64, RANDOM))
          .append('\n');
    }
    byte[] image = new byte[200_000];
    RANDOM.nextBytes(image);
    text.append("![chart](data:image/png;base64,")
        .append(Base64.getEncoder().encodeToString(image))
        .append(")\n")
        .append(Base64.getMimeEncoder().encodeToString(image));

    assertThat(scanner.scan(text.toString())).isEmpty();
  }

  @Test
  void secretsAtTheVeryStartAndEndOfTheTextAreFound() {
    String first = githubPat();
    String last = githubPat();

    assertThat(scanner.scan(first + " and " + last))
        .extracting(Finding::column)
        .containsExactly(1, first.length() + 6);
  }

  @Test
  void aPrivateKeyIsReportedAtItsBeginLineAndRedactedWhole() {
    String body = ExampleText.random(ExampleText.alphabet("base64"), 64, RANDOM);
    String key =
        "-----BEGIN OPENSSH PRIVATE KEY-----\n"
            + body
            + "\n"
            + body
            + "\n-----END OPENSSH PRIVATE KEY-----";

    assertThat(scanner.scan("id_ed25519:\n" + key + "\n"))
        .extracting(Finding::ruleId, Finding::line, Finding::column)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("private-key", 2, 1));
    assertThat(scanner.redact("id_ed25519:\n" + key + "\n")).isEqualTo("id_ed25519:\n[REDACTED]\n");
  }

  @Test
  void theGenericRuleStaysQuietWhereASpecificRuleNamedTheSecret() {
    String token = githubPat();

    assertThat(SecretScanner.allRules().scan("api_token = \"" + token + "\""))
        .extracting(Finding::ruleId)
        .containsExactly("github-pat");
  }

  @Test
  void theGenericRuleReportsAHighEntropyValueAssignedToASecretName() {
    String value = "Zt8" + ExampleText.random(BASE62, 24, RANDOM) + "4";

    assertThat(SecretScanner.allRules().scan("db_password = \"" + value + "\""))
        .extracting(Finding::ruleId)
        .containsExactly("generic-api-key");
    assertThat(scanner.scan("db_password = \"" + value + "\"")).isEmpty();
  }

  @Test
  void hostileInputsFinishAndFindNothing() {
    String[] inputs = {
      "a".repeat(1_000_000),
      "ghp_".repeat(250_000),
      "key=".repeat(250_000),
      "-----BEGIN PRIVATE KEY-----".repeat(40_000),
      "\n".repeat(1_000_000),
      "xoxb-1234567890-".repeat(60_000),
    };
    for (String input : inputs) {
      assertThat(SecretScanner.allRules().scan(input)).isEmpty();
    }
  }

  @Test
  void defaultRulesAreBuiltOnceAndAreASubsetOfAllRules() {
    assertThat(SecretScanner.defaultRules()).isSameAs(SecretScanner.defaultRules());
    assertThat(SecretScanner.allRules().rules()).containsAll(SecretScanner.defaultRules().rules());
    assertThat(SecretScanner.defaultRules().rules()).allMatch(Rule::inDefaultSet);
  }

  @Test
  void scanRejectsNull() {
    assertThatThrownBy(() -> scanner.scan(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("text is null");
  }

  @Test
  void findingValidatesItsFields() {
    assertThatThrownBy(() -> new Finding("github-pat", "GitHub PAT", 0, 1, "0123456789ab"))
        .hasMessage("line must be 1 or more: 0");
    assertThatThrownBy(() -> new Finding("github-pat", "GitHub PAT", 1, 1, "ghp_secret"))
        .hasMessage("fingerprint is not 12 lower-case hex digits: ghp_secret");
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = SecretScannerTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
