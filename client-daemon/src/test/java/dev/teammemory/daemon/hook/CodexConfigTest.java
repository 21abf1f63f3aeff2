package dev.teammemory.daemon.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CodexConfigTest {

  private static final Path CONFIG = Path.of("/home/ada/.codex/config.toml");

  private static final CodexConfig.Block BLOCK =
      new CodexConfig.Block(
          List.of("/opt/tmem/tmem", "mcp"),
          List.of("XDG_STATE_HOME", "JAVA_HOME"),
          List.of(
              new CodexConfig.Hook(
                  "SessionStart", Optional.of("startup|resume"), "'/s/tmem-hook' session-start"),
              new CodexConfig.Hook(
                  "UserPromptSubmit", Optional.empty(), "'/s/tmem-hook' user-prompt")));

  /** Hashes {@code codex app-server}'s {@code hooks/list} reported as currentHash (0.171.0). */
  @Test
  void theTrustHashIsTheOneCodexComputes() {
    assertThat(
            CodexConfig.trustHash(
                new CodexConfig.Hook(
                    "SessionStart",
                    Optional.of("startup|resume"),
                    "tmem hook session-start --agent codex",
                    30)))
        .isEqualTo("sha256:b8d932dd6481086f0b12b7d44953f97caf650ba46a9253be21fcaab1ff59d73f");
    assertThat(
            CodexConfig.trustHash(
                new CodexConfig.Hook(
                    "UserPromptSubmit",
                    Optional.empty(),
                    "tmem hook user-prompt --agent codex",
                    30)))
        .isEqualTo("sha256:326562b6e8fb5b70b35ec82a152305528c3ed81f866770a5cf2ef97ecb6dac26");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "model = \"o3\"\n",
        "model = \"o3\"",
        "# my settings\r\nmodel = \"o3\"\r\n\r\n[profiles.fast]\r\nmodel = \"o4-mini\"  # fast\r\n",
        "[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = \"command\"\ncommand = \"mine\"\n\n\n"
      })
  void uninstallGivesBackTheFileByteForByte(String before) {
    String installed = CodexConfig.install(before, CONFIG, BLOCK);

    assertThat(installed)
        .startsWith(before)
        .contains(CodexConfig.BEGIN)
        .endsWith(CodexConfig.END + "\n");
    assertThat(CodexConfig.uninstall(installed)).isEqualTo(before);
  }

  @Test
  void aSecondInstallReplacesTheBlockWhereItIsAndKeepsWhatFollows() {
    String first =
        CodexConfig.install("model = \"o3\"\n", CONFIG, BLOCK) + "\n[profiles.x]\nmodel = \"y\"\n";
    CodexConfig.Block other =
        new CodexConfig.Block(List.of("/usr/bin/tmem", "mcp"), List.of(), BLOCK.hooks());

    String second = CodexConfig.install(first, CONFIG, other);

    assertThat(second)
        .startsWith("model = \"o3\"\n" + CodexConfig.BEGIN)
        .contains("command = \"/usr/bin/tmem\"")
        .doesNotContain("/opt/tmem/tmem")
        .endsWith(CodexConfig.END + "\n\n[profiles.x]\nmodel = \"y\"\n");
    assertThat(CodexConfig.uninstall(second))
        .isEqualTo("model = \"o3\"\n\n[profiles.x]\nmodel = \"y\"\n");
  }

  @Test
  void theBlockRegistersTheServerApprovesSavesAndTrustsEachHookUnderItsKey() {
    String installed = CodexConfig.install("", CONFIG, BLOCK);

    assertThat(installed)
        .isEqualTo(
            CodexConfig.BEGIN
                + "\n"
                + """
                [mcp_servers.tmem]
                command = "/opt/tmem/tmem"
                args = ["mcp"]
                env_vars = ["XDG_STATE_HOME", "JAVA_HOME"]
                required = true
                startup_timeout_sec = 60

                [mcp_servers.tmem.tools.memory_save]
                approval_mode = "approve"

                [[hooks.SessionStart]]
                matcher = "startup|resume"

                [[hooks.SessionStart.hooks]]
                type = "command"
                command = "'/s/tmem-hook' session-start"
                timeout = 60

                [[hooks.UserPromptSubmit]]

                [[hooks.UserPromptSubmit.hooks]]
                type = "command"
                command = "'/s/tmem-hook' user-prompt"
                timeout = 60

                [hooks.state."/home/ada/.codex/config.toml:session_start:0:0"]
                trusted_hash = "%s"

                [hooks.state."/home/ada/.codex/config.toml:user_prompt_submit:0:0"]
                trusted_hash = "%s"
                """
                    .formatted(
                        CodexConfig.trustHash(BLOCK.hooks().get(0)),
                        CodexConfig.trustHash(BLOCK.hooks().get(1)))
                + CodexConfig.END
                + "\n");
  }

  @Test
  void aPersonsOwnHookGroupsBeforeTheBlockShiftTheTrustKey() {
    String mine = "[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ncommand = \"mine\"\n";

    assertThat(CodexConfig.install(mine, CONFIG, BLOCK))
        .contains("[hooks.state.\"/home/ada/.codex/config.toml:session_start:1:0\"]")
        .contains("[hooks.state.\"/home/ada/.codex/config.toml:user_prompt_submit:0:0\"]");
  }

  @Test
  void quotesAndControlCharactersAreEscapedInTomlStrings() {
    assertThat(CodexConfig.string("a \"b\" \\ c\n\u0001"))
        .isEqualTo("\"a \\\"b\\\" \\\\ c\\n\\u0001\"");
  }

  @Test
  void aBlockWithoutItsEndMarkerIsNotGuessedAt() {
    assertThatThrownBy(() -> CodexConfig.uninstall("x = 1\n" + CodexConfig.BEGIN + "\n[a]\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no end marker");
  }
}
