package dev.teammemory.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The help of every command, as {@code tmem <command> --help} prints it: the list of commands shows
 * each one's first description paragraph, so that paragraph must end a sentence, and every
 * paragraph is printed wrapped as one (no line break before the width where the text goes on).
 */
class HelpTest {

  /** Picocli's usage width; it fills at most one column less. */
  private static final int WIDTH = 80;

  private static final Pattern SENTENCE_END = Pattern.compile(".*[.!?:][)\"`']?$");

  /** Every command of the tree, as the words that name it after {@code tmem}. */
  static Stream<List<String>> commands() {
    List<List<String>> paths = new ArrayList<>();
    collect(Tmem.commandLine(), List.of(), paths);
    return paths.stream();
  }

  private static void collect(CommandLine command, List<String> path, List<List<String>> paths) {
    paths.add(path);
    command
        .getSubcommands()
        .forEach(
            (name, subcommand) -> {
              // picocli's own help command is left to picocli.
              if (!(subcommand.getCommand() instanceof CommandLine.HelpCommand)
                  && !subcommand.getCommandSpec().usageMessage().hidden()
                  && subcommand.getCommandName().equals(name)) {
                List<String> longer = new ArrayList<>(path);
                longer.add(name);
                collect(subcommand, longer, paths);
              }
            });
  }

  private static String help(List<String> path) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> arguments = new ArrayList<>(path);
    arguments.add("--help");
    int exitCode =
        Tmem.run(arguments.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
    assertThat(exitCode).as("tmem %s --help: %s", path, err).isZero();
    return out.toString();
  }

  private static CommandLine command(List<String> path) {
    CommandLine command = Tmem.commandLine();
    for (String name : path) {
      command = command.getSubcommands().get(name);
    }
    return command;
  }

  private static String withoutSpaces(String text) {
    return text.replaceAll("\\s+", "");
  }

  @ParameterizedTest(name = "tmem {0} --help")
  @MethodSource("commands")
  void theFirstDescriptionParagraphEndsASentence(List<String> path) {
    String[] description = command(path).getCommandSpec().usageMessage().description();

    assertThat(description).as("tmem %s has a description", path).isNotEmpty();
    assertThat(description[0].strip())
        .as("the first paragraph of tmem %s's description", path)
        .matches(SENTENCE_END);
  }

  @ParameterizedTest(name = "tmem {0} --help")
  @MethodSource("commands")
  void theCommandListShowsEachFirstParagraphWhole(List<String> path) {
    String help = withoutSpaces(help(path));

    command(path)
        .getSubcommands()
        .forEach(
            (name, subcommand) -> {
              if (subcommand.getCommand() instanceof CommandLine.HelpCommand) {
                return;
              }
              String[] description = subcommand.getCommandSpec().usageMessage().description();
              assertThat(help)
                  .as("tmem %s --help lists %s", path, name)
                  .contains(withoutSpaces(name + description[0]));
            });
  }

  @ParameterizedTest(name = "tmem {0} --help")
  @MethodSource("commands")
  void eachParagraphIsWrappedAsOneWithinTheWidth(List<String> path) {
    String[] lines = help(path).split("\n");
    String[] description = command(path).getCommandSpec().usageMessage().description();
    // The description follows the synopsis line(s); it is printed from the first line that starts
    // with its first word.
    int first = 1;
    String firstWord = description[0].strip().split("\\s+")[0];
    while (!lines[first].startsWith(firstWord)) {
      first++;
    }
    StringBuilder printed = new StringBuilder();
    for (int i = first; i < lines.length && !lines[i].startsWith(" "); i++) {
      printed.append(lines[i]).append('\n');
    }
    for (String line : lines) {
      assertThat(line.length()).as("tmem %s --help: %s", path, line).isLessThanOrEqualTo(WIDTH);
    }
    List<String> descriptionLines = List.of(printed.toString().split("\n"));
    for (int i = 0; i + 1 < descriptionLines.size(); i++) {
      String line = descriptionLines.get(i);
      String next = descriptionLines.get(i + 1);
      boolean paragraphEnds = SENTENCE_END.matcher(line).matches();
      if (!paragraphEnds) {
        assertThat(line.length() + 1 + next.split(" ")[0].length())
            .as("tmem %s --help breaks '%s' before the width", path, line)
            .isGreaterThanOrEqualTo(WIDTH);
      }
    }
  }
}
