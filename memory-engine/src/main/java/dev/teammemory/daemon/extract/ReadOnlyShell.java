package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether a shell command line only reads. It is an allow-list, not a deny-list: the line
 * is split into words the way a POSIX shell splits it, and every command in it must be one of a few
 * known readers with no argument that makes it write or run something else. Anything the parser
 * does not fully understand is refused: redirection, {@code ;}, background {@code &}, subshells,
 * command substitution, variable assignments, several lines. Pipes and {@code &&} / {@code ||} are
 * allowed between readers, so {@code ls && rm x} is refused for its {@code rm}.
 */
public final class ReadOnlyShell {

  /** The verdict on one command line. */
  public sealed interface Verdict {
    /** Every command in the line only reads. */
    record ReadOnly() implements Verdict {}

    /** The line may write or do something the parser cannot vouch for; {@code reason} says what. */
    record Refused(String reason) implements Verdict {
      public Refused {
        requireNonNull(reason, "reason is null");
      }
    }
  }

  private static final Set<String> READERS =
      Set.of(
          "ls",
          "find",
          "grep",
          "egrep",
          "fgrep",
          "rg",
          "cat",
          "head",
          "tail",
          "wc",
          "stat",
          "file",
          "du",
          "pwd",
          "echo",
          "tree",
          "sort",
          "uniq",
          "cut",
          "tr",
          "nl",
          "diff",
          "cmp",
          "comm",
          "basename",
          "dirname",
          "realpath",
          "readlink",
          "date",
          "git",
          "jq",
          "which",
          "true",
          "md5sum",
          "sha256sum",
          "column",
          "od");

  /** Arguments that turn a reader into a writer or a launcher, by command. */
  private static final Map<String, List<String>> FORBIDDEN_ARGUMENTS =
      Map.of(
          "find",
              List.of(
                  "-exec",
                  "-execdir",
                  "-ok",
                  "-okdir",
                  "-delete",
                  "-fprint",
                  "-fprint0",
                  "-fprintf",
                  "-fls"),
          "sort", List.of("-o", "--output"),
          "rg", List.of("--pre"),
          "tree", List.of("-o"),
          "date", List.of("-s", "--set"),
          "git", List.of("-c", "--output", "--exec-path", "-C"));

  private static final Set<String> GIT_READERS =
      Set.of(
          "status",
          "log",
          "diff",
          "show",
          "blame",
          "ls-files",
          "rev-parse",
          "describe",
          "shortlog",
          "grep",
          "cat-file",
          "ls-tree",
          "branch");

  private ReadOnlyShell() {}

  public static Verdict check(String command) {
    requireNonNull(command, "command is null");
    if (command.indexOf('\n') >= 0 || command.indexOf('\r') >= 0) {
      return refused("several lines run several commands");
    }
    List<List<String>> segments = new ArrayList<>();
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    int i = 0;
    while (i < command.length()) {
      char c = command.charAt(i);
      switch (c) {
        case '\'' -> {
          int end = command.indexOf('\'', i + 1);
          if (end < 0) {
            return refused("an unterminated quote");
          }
          word.append(command, i + 1, end);
          inWord = true;
          i = end + 1;
          continue;
        }
        case '"' -> {
          int end = i + 1;
          StringBuilder quoted = new StringBuilder();
          while (end < command.length() && command.charAt(end) != '"') {
            char q = command.charAt(end);
            if (q == '`'
                || (q == '$' && end + 1 < command.length() && command.charAt(end + 1) == '(')) {
              return refused("command substitution runs another command");
            }
            if (q == '\\' && end + 1 < command.length()) {
              quoted.append(command.charAt(end + 1));
              end += 2;
              continue;
            }
            quoted.append(q);
            end++;
          }
          if (end >= command.length()) {
            return refused("an unterminated quote");
          }
          word.append(quoted);
          inWord = true;
          i = end + 1;
          continue;
        }
        case '\\' -> {
          if (i + 1 < command.length()) {
            word.append(command.charAt(i + 1));
            inWord = true;
          }
          i += 2;
          continue;
        }
        case ' ', '\t' -> {
          if (inWord) {
            words.add(word.toString());
            word.setLength(0);
            inWord = false;
          }
          i++;
          continue;
        }
        case ';' -> {
          return refused("`;` runs several commands");
        }
        case '>', '<' -> {
          return refused("redirection can write files");
        }
        case '(', ')', '{', '}' -> {
          return refused("subshells and groups run other commands");
        }
        case '`' -> {
          return refused("command substitution runs another command");
        }
        case '$' -> {
          if (i + 1 < command.length() && command.charAt(i + 1) == '(') {
            return refused("command substitution runs another command");
          }
          word.append(c);
          inWord = true;
          i++;
          continue;
        }
        case '&', '|' -> {
          boolean doubled = i + 1 < command.length() && command.charAt(i + 1) == c;
          if (c == '&' && !doubled) {
            return refused("`&` runs a command in the background");
          }
          if (inWord) {
            words.add(word.toString());
            word.setLength(0);
            inWord = false;
          }
          if (words.isEmpty()) {
            return refused("an operator without a command before it");
          }
          segments.add(List.copyOf(words));
          words.clear();
          i += doubled ? 2 : 1;
          continue;
        }
        default -> {
          word.append(c);
          inWord = true;
          i++;
          continue;
        }
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    if (words.isEmpty()) {
      return segments.isEmpty()
          ? refused("an empty command")
          : refused("an operator without a command after it");
    }
    segments.add(List.copyOf(words));
    for (List<String> segment : segments) {
      Optional<String> problem = problem(segment);
      if (problem.isPresent()) {
        return refused(problem.get());
      }
    }
    return new Verdict.ReadOnly();
  }

  private static Optional<String> problem(List<String> words) {
    String name = words.getFirst();
    if (name.matches("[A-Za-z_][A-Za-z0-9_]*=.*")) {
      return Optional.of("setting variables for a command is not allowed");
    }
    if (name.equals("rm")
        || name.equals("rmdir")
        || name.equals("unlink")
        || name.equals("shred")) {
      return Optional.of(name + " deletes files");
    }
    if (!READERS.contains(name)) {
      return Optional.of(name + " is not one of the read-only commands allowed here");
    }
    List<String> arguments = words.subList(1, words.size());
    for (String argument : arguments) {
      for (String forbidden : FORBIDDEN_ARGUMENTS.getOrDefault(name, List.of())) {
        if (argument.equals(forbidden)
            || argument.startsWith(forbidden + "=")
            || (forbidden.startsWith("--") && argument.startsWith(forbidden))) {
          return Optional.of(name + " " + forbidden + " can write files or run commands");
        }
      }
    }
    if (name.equals("git")) {
      Optional<String> subcommand =
          arguments.stream().filter(argument -> !argument.startsWith("-")).findFirst();
      if (subcommand.isEmpty() || !GIT_READERS.contains(subcommand.get())) {
        return Optional.of("git " + subcommand.orElse("") + " is not a read-only git command");
      }
      if (subcommand.get().equals("branch")
          && arguments.stream()
              .anyMatch(
                  argument ->
                      !argument.equals("branch")
                          && !Set.of(
                                  "-a",
                                  "-r",
                                  "--list",
                                  "-v",
                                  "-vv",
                                  "--all",
                                  "--remotes",
                                  "--show-current")
                              .contains(argument))) {
        return Optional.of("git branch with arguments can create or delete branches");
      }
    }
    return Optional.empty();
  }

  private static Verdict refused(String reason) {
    return new Verdict.Refused(reason);
  }
}
