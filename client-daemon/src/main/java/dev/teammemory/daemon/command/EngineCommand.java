package dev.teammemory.daemon.command;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.model.LanguageModel;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What the commands over the memory engine share: the environment and clock they run with (tests
 * give their own, so none reads the real {@code ~/.claude}), their output streams, and the model
 * the environment configures.
 */
public abstract class EngineCommand implements Callable<Integer> {

  protected final Environment environment;
  protected final Clock clock;

  @Spec protected CommandSpec spec;

  protected EngineCommand(Environment environment, Clock clock) {
    this.environment = requireNonNull(environment, "environment is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  protected final PrintWriter out() {
    return spec.commandLine().getOut();
  }

  protected final PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /**
   * The model {@code ANTHROPIC_API_KEY} and its settings configure, or the offline one.
   *
   * @throws UserError a usage error when a setting is malformed: the user's to fix
   */
  protected final LanguageModel model() {
    try {
      return LanguageModel.fromEnvironment(environment.variables());
    } catch (IllegalArgumentException misconfigured) {
      throw UserError.usage(misconfigured.getMessage() + "; fix the variable or unset it");
    }
  }
}
