package dev.teammemory.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.re2j.Pattern;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RuleFileTest {

  /** The reference scanner's high-confidence, distinctive-prefix rules. */
  private static final List<String> REFERENCE_RULES =
      List.of(
          "aws-access-token",
          "gcp-api-key",
          "azure-ad-client-secret",
          "digitalocean-pat",
          "digitalocean-access-token",
          "anthropic-api-key",
          "anthropic-admin-api-key",
          "openai-api-key",
          "huggingface-access-token",
          "github-pat",
          "github-fine-grained-pat",
          "github-app-token",
          "github-oauth",
          "github-refresh-token",
          "gitlab-pat",
          "gitlab-deploy-token",
          "slack-bot-token",
          "slack-user-token",
          "slack-app-token",
          "twilio-api-key",
          "sendgrid-api-token",
          "npm-access-token",
          "pypi-upload-token",
          "databricks-api-token",
          "hashicorp-tf-api-token",
          "pulumi-api-token",
          "postman-api-token",
          "grafana-api-key",
          "grafana-cloud-api-token",
          "grafana-service-account-token",
          "sentry-user-token",
          "sentry-org-token",
          "stripe-access-token",
          "shopify-access-token",
          "shopify-shared-secret",
          "private-key");

  static Stream<Rule> rules() {
    return SecretScanner.allRules().rules().stream();
  }

  @ParameterizedTest(name = "{0} compiles under RE2J")
  @MethodSource("rules")
  void everyRuleCompilesUnderRe2j(Rule rule) {
    Pattern pattern = Pattern.compile(rule.regex());

    assertThat(pattern.matcher("").find()).isFalse();
  }

  @ParameterizedTest(name = "{0} compiles under java.util.regex too")
  @MethodSource("rules")
  void everyRuleAlsoCompilesUnderJavaUtilRegexForTheNaiveBaseline(Rule rule) {
    java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(rule.regex());

    assertThat(pattern.matcher("").find()).isFalse();
  }

  @ParameterizedTest(name = "{0} carries examples")
  @MethodSource("rules")
  void everyRuleCarriesMatchAndNoMatchExamplesAndALabel(Rule rule) {
    assertThat(rule.matchExamples()).isNotEmpty();
    assertThat(rule.noMatchExamples()).isNotEmpty();
    assertThat(rule.label()).isNotBlank();
    assertThat(rule.keywords()).allMatch(keyword -> keyword.chars().allMatch(c -> c < 128));
  }

  @Test
  void theDefaultSetHoldsEveryRuleOfTheReferenceScanner() {
    assertThat(SecretScanner.defaultRules().rules())
        .extracting(Rule::id)
        .containsAll(REFERENCE_RULES);
  }

  @Test
  void theDefaultSetHoldsNoKeywordContextOrGenericRule() {
    assertThat(SecretScanner.defaultRules().rules())
        .extracting(Rule::id)
        .doesNotContain("generic-api-key", "jwt", "twitter-api-key");
  }

  @Test
  void macrosExpandAndTheWindowIsTheLongestMatch() {
    RuleFile.Contents contents =
        RuleFile.parse(
            "test.txt",
            """
            define end = (?:\\s|$)
            [rule demo-token]
            label = demo token
            set = default
            keywords = demo_
            regex = \\b(demo_[a-f0-9]{8}){{end}}
            """);

    Rule rule = contents.rules().getFirst();
    assertThat(rule.regex()).isEqualTo("(?:^|[^0-9A-Za-z])(demo_[a-f0-9]{8})(?:\\s|$)");
    // The separator before the token is one character of the match, which may lie outside the
    // Basic Multilingual Plane: two UTF-16 units.
    assertThat(rule.maxMatchLength()).isEqualTo(16);
  }

  @Test
  void aWordBoundaryOpeningOrClosingARegexIsASeparatorThatUnderscoreAlsoIs() {
    assertThat(RuleFile.separatorBoundaries("\\b(ghp_[0-9A-Za-z]{36})\\b"))
        .isEqualTo("(?:^|[^0-9A-Za-z])(ghp_[0-9A-Za-z]{36})(?:[^0-9A-Za-z]|$)");
    assertThat(RuleFile.separatorBoundaries("(?i)\\blob=(x)"))
        .isEqualTo("(?i)(?:^|[^0-9A-Za-z])lob=(x)");
    // Only at the edges, and never an escaped backslash followed by b.
    assertThat(RuleFile.separatorBoundaries("a\\bb")).isEqualTo("a\\bb");
    assertThat(RuleFile.separatorBoundaries("(a\\\\b")).isEqualTo("(a\\\\b");
  }

  @ParameterizedTest(name = "{0} keeps no RE2 word boundary at its edges")
  @MethodSource("rules")
  void noRuleOpensOrClosesWithAWordBoundaryThatMissesTokensNextToUnderscore(Rule rule) {
    String body = RuleFile.LEADING_FLAGS.matcher(rule.regex()).replaceFirst("");
    assertThat(body).doesNotStartWith("\\b");
    assertThat(body.endsWith("\\b") && !body.endsWith("\\\\b")).isFalse();
  }

  @Test
  void errorsNameTheFileAndLine() {
    assertError("[rule a]\nlabel = A\nflavour = sweet\n", "test.txt:3: unknown field 'flavour'");
    assertError(
        "[rule a]\nlabel = A\nset = default\nkeywords = a\nregex = a{{nope}}\n",
        "test.txt:5: unknown macro {{nope}}");
    assertError(
        "[rule a]\nlabel = A\nset = default\nkeywords = a\nregex = a+\n",
        "test.txt:1: rule a: its regex has unbounded repetition, so it needs max-length");
    assertError("[rule a]\n[rule a]\n", "test.txt:2: duplicate rule id 'a'");
    assertError(
        "[rule a]\nset = sometimes\n",
        "test.txt:2: set must be 'default' or 'extended': sometimes");
    assertError("label = A\n", "test.txt:1: field 'label' outside a section");
  }

  @Test
  void aRegexRe2jCannotCompileIsRejectedWithTheReason() {
    assertThatThrownBy(
            () ->
                RuleFile.parse(
                    "test.txt",
                    "[rule a]\nlabel = A\nset = default\nkeywords = a\nregex = a(?=b)\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("test.txt:5: regex does not compile under RE2J (")
        .hasMessageEndingWith("): a(?=b)");
  }

  private static void assertError(String text, String message) {
    assertThatThrownBy(() -> RuleFile.parse("test.txt", text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }
}
