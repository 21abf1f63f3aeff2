package dev.teammemory.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A Dockerfile as its instructions: comments dropped, continuation lines joined, each instruction
 * split into its keyword and the rest.
 *
 * @param instructions in file order
 */
record Dockerfile(List<Instruction> instructions) {

  Dockerfile {
    instructions = List.copyOf(instructions);
  }

  /**
   * @param keyword upper case ({@code FROM}, {@code COPY}) @param arguments the rest, trimmed
   */
  record Instruction(String keyword, String arguments) {}

  static Dockerfile parse(Path file) {
    List<Instruction> instructions = new ArrayList<>();
    StringBuilder pending = new StringBuilder();
    for (String line : DeployFiles.read(file).lines().toList()) {
      String stripped = line.strip();
      if (pending.isEmpty() && (stripped.isEmpty() || stripped.startsWith("#"))) {
        continue;
      }
      if (stripped.startsWith("#")) {
        continue; // a comment inside a continued instruction
      }
      if (stripped.endsWith("\\")) {
        pending.append(stripped, 0, stripped.length() - 1).append(' ');
        continue;
      }
      pending.append(stripped);
      String instruction = pending.toString().strip();
      pending.setLength(0);
      int space = instruction.indexOf(' ');
      instructions.add(
          new Instruction(
              instruction.substring(0, space).toUpperCase(Locale.ROOT),
              instruction.substring(space + 1).strip()));
    }
    if (!pending.isEmpty()) {
      throw new IllegalArgumentException(file + " ends inside a continued instruction");
    }
    return new Dockerfile(instructions);
  }

  List<String> all(String keyword) {
    return instructions.stream()
        .filter(instruction -> instruction.keyword().equals(keyword))
        .map(Instruction::arguments)
        .toList();
  }

  /** The one instruction of a kind that may appear once (the last counts for Docker). */
  String last(String keyword) {
    List<String> found = all(keyword);
    if (found.isEmpty()) {
      throw new AssertionError("the Dockerfile has no " + keyword);
    }
    return found.getLast();
  }
}
