package dev.teammemory.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.secrets.SecretTokens;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final SecretTokens tokens = new SecretTokens(7);

  @TempDir Path folder;

  private int tmem(String... args) {
    return Tmem.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void aCleanFolderExitsZeroAndPrintsNothing() throws IOException {
    Files.writeString(folder.resolve("MEMORY.md"), "# Team memory\n- [project] deploy.md\n");
    Files.writeString(
        folder.resolve("deploy.md"),
        "Keys look like AKIAIOSFODNN7EXAMPLE; ours is in the vault.\n");

    assertThat(tmem("scan", folder.toString())).isZero();
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void aSecretExitsOneAndPrintsPathLineColumnAndRuleButNotTheSecret() throws IOException {
    String token = tokens.githubPat();
    Path notes = folder.resolve("notes.md");
    Files.writeString(notes, "# CI\n\nexport GITHUB_TOKEN=" + token + "\n");

    assertThat(tmem("scan", notes.toString())).isEqualTo(1);
    assertThat(out.toString()).isEqualTo(notes + ":3:21: github-pat (GitHub PAT)\n");
    assertThat(err.toString())
        .isEqualTo(
            "tmem: found 1 secret in 1 file; remove them (rotate any that were real), or mark a"
                + " line that holds none with a gitleaks:allow comment\n");
    assertThat(out.toString() + err).doesNotContain(token);
  }

  @Test
  void foldersAreWalkedInPathOrderSkippingGitFoldersAndBinaryFiles() throws IOException {
    Files.createDirectories(folder.resolve("b/deep"));
    Files.createDirectories(folder.resolve(".git/objects"));
    Files.writeString(folder.resolve("b/deep/aws.md"), "aws = " + tokens.awsAccessKeyId() + "\n");
    Files.writeString(folder.resolve("a.md"), "\n\n  " + tokens.githubPat() + "\n");
    Files.writeString(folder.resolve(".git/objects/x"), tokens.githubPat());
    Files.write(
        folder.resolve("image.bin"),
        ("\0\1\2" + tokens.githubPat()).getBytes(java.nio.charset.StandardCharsets.UTF_8));

    assertThat(tmem("scan", folder.toString())).isEqualTo(1);
    assertThat(out.toString())
        .isEqualTo(
            folder.resolve("a.md")
                + ":3:3: github-pat (GitHub PAT)\n"
                + folder.resolve("b/deep/aws.md")
                + ":1:7: aws-access-token (AWS access key ID)\n");
  }

  @Test
  void jsonIsAnArrayOfFindingsWithFingerprintsAndNeverTheSecret() throws IOException {
    String token = tokens.githubPat();
    Path notes = folder.resolve("notes.md");
    Files.writeString(notes, token + "\n" + token + "\n");

    assertThat(tmem("scan", "--format", "json", notes.toString())).isEqualTo(1);
    JsonNode findings = new ObjectMapper().readTree(out.toString());
    assertThat(findings).hasSize(2);
    JsonNode first = findings.get(0);
    assertThat(first.fieldNames())
        .toIterable()
        .containsExactly("path", "line", "column", "ruleId", "label", "fingerprint", "allowed");
    assertThat(first.get("allowed").asBoolean()).isFalse();
    assertThat(first.get("path").asText()).isEqualTo(notes.toString());
    assertThat(first.get("line").asInt()).isEqualTo(1);
    assertThat(first.get("column").asInt()).isEqualTo(1);
    assertThat(first.get("ruleId").asText()).isEqualTo("github-pat");
    assertThat(first.get("label").asText()).isEqualTo("GitHub PAT");
    assertThat(first.get("fingerprint").asText())
        .matches("[0-9a-f]{12}")
        .isEqualTo(findings.get(1).get("fingerprint").asText());
    assertThat(out.toString()).doesNotContain(token);
  }

  @Test
  void jsonOfACleanScanIsAnEmptyArray() throws IOException {
    Files.writeString(folder.resolve("clean.md"), "nothing here\n");

    assertThat(tmem("scan", "--format=json", folder.toString())).isZero();
    assertThat(out.toString()).isEqualTo("[]\n");
  }

  @Test
  void aLineMarkedGitleaksAllowIsListedAsAllowedAndFailsNothing() throws IOException {
    String token = tokens.githubPat();
    Path notes = folder.resolve("notes.md");
    Files.writeString(notes, "fixture: " + token + " <!-- gitleaks:allow -->\n");

    assertThat(tmem("scan", notes.toString())).isZero();
    assertThat(out.toString())
        .isEqualTo(notes + ":1:10: github-pat (GitHub PAT), allowed by a gitleaks:allow comment\n");
    assertThat(err.toString())
        .isEqualTo(
            "tmem: 1 finding allowed by gitleaks:allow comments; such a file is still not synced"
                + " to team memory, where the comment exempts nothing\n");
    assertThat(out.toString() + err).doesNotContain(token);
  }

  @Test
  void anAllowedFindingBesideASecretStillFailsTheScanForTheSecret() throws IOException {
    Path notes = folder.resolve("notes.md");
    Files.writeString(
        notes, tokens.githubPat() + " # gitleaks:allow\nreal: " + tokens.githubPat() + "\n");

    assertThat(tmem("scan", "--format", "json", notes.toString())).isEqualTo(1);
    JsonNode findings = new ObjectMapper().readTree(out.toString());
    assertThat(findings)
        .extracting(hit -> hit.get("allowed").asBoolean())
        .containsExactly(true, false);
    assertThat(err.toString())
        .startsWith("tmem: found 1 secret in 1 file;")
        .contains("tmem: 1 finding allowed by gitleaks:allow comments;");
  }

  @Test
  void allRulesAddsTheGenericRule() throws IOException {
    Path config = folder.resolve("config.md");
    Files.writeString(config, "db_password = \"Zt8q4LmW2xR9vB7nK3pJ\"\n");

    assertThat(tmem("scan", config.toString())).isZero();
    assertThat(tmem("scan", "--all-rules", config.toString())).isEqualTo(1);
    assertThat(out.toString()).isEqualTo(config + ":1:16: generic-api-key (generic API key)\n");
  }

  @Test
  void aMissingPathIsAUsageErrorWithExitCodeTwo() {
    Path missing = folder.resolve("missing.md");

    assertThat(tmem("scan", missing.toString())).isEqualTo(2);
    assertThat(err.toString())
        .isEqualTo(
            "tmem: cannot scan "
                + missing
                + ": no such file or folder; give the files or folders to scan\n");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void noPathOrAnUnknownFormatIsAUsageError() {
    assertThat(tmem("scan")).isEqualTo(2);
    assertThat(err.toString()).contains("Missing required parameter: 'PATH'");

    assertThat(tmem("scan", "--format", "xml", folder.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("Invalid value for option '--format'");
  }
}
