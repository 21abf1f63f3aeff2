package dev.teammemory.daemon.extract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ReadOnlyShellTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ls -la",
        "ls -la ~/.claude/projects/app/memory",
        "grep -rn \"refresh token\" memory/ --include='*.md'",
        "cat MEMORY.md | head -20",
        "find . -name '*.md' -newer MEMORY.md",
        "git log --oneline -5",
        "git branch --show-current",
        "ls memory && cat memory/MEMORY.md",
        "wc -l a.md b.md",
        "stat -c %Y MEMORY.md",
        "echo $HOME",
        "grep -c 'a;b' notes.md",
        "grep \"x > y\" notes.md",
      })
  void readersArePermitted(String command) {
    assertThat(ReadOnlyShell.check(command)).isEqualTo(new ReadOnlyShell.Verdict.ReadOnly());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '#',
      value = {
        "echo hi > notes.md # redirection can write files",
        "cat a >> b # redirection can write files",
        "ls 2>&1 # redirection can write files",
        "ls; rm notes.md # `;` runs several commands",
        "ls && rm -rf memory # rm deletes files",
        "rm MEMORY.md # rm deletes files",
        "cat $(whoami) # command substitution runs another command",
        "cat `whoami` # command substitution runs another command",
        "cat \"$(whoami)\" # command substitution runs another command",
        "(cd /; ls) # subshells and groups run other commands",
        "find . -delete # find -delete can write files or run commands",
        "find . -exec cat x # find -exec can write files or run commands",
        "sort -o out.txt in.txt # sort -o can write files or run commands",
        "git commit -m x # git commit is not a read-only git command",
        "git -c core.pager=evil log # git -c can write files or run commands",
        "git diff --output=patch.txt # git --output can write files or run commands",
        "git branch -D main # git branch with arguments can create or delete branches",
        "tee notes.md # tee is not one of the read-only commands allowed here",
        "sed -i s/a/b/ notes.md # sed is not one of the read-only commands allowed here",
        "ls | xargs rm # xargs is not one of the read-only commands allowed here",
        "PAGER=evil git log # setting variables for a command is not allowed",
        "sleep 100 & # `&` runs a command in the background",
        "python3 -c 'open(1)' # python3 is not one of the read-only commands allowed here",
      })
  void writersAndAnythingUnclearAreRefusedWithTheReason(String command, String reason) {
    assertThat(ReadOnlyShell.check(command)).isEqualTo(new ReadOnlyShell.Verdict.Refused(reason));
  }

  @org.junit.jupiter.api.Test
  void severalLinesAreRefused() {
    assertThat(ReadOnlyShell.check("ls\nrm x"))
        .isEqualTo(new ReadOnlyShell.Verdict.Refused("several lines run several commands"));
  }
}
