package dev.teammemory.daemon.command;

import picocli.CommandLine.Option;

/** {@code --format text|json}, for the memory-engine commands whose output is data. */
public final class FormatOption {

  @Option(
      names = "--format",
      defaultValue = "text",
      description = "text or json (default: ${DEFAULT-VALUE}).")
  OutputFormat format;

  public OutputFormat value() {
    return format;
  }
}
