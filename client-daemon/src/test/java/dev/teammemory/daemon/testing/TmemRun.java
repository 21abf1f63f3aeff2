package dev.teammemory.daemon.testing;

import dev.teammemory.daemon.cli.Tmem;
import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import java.time.Clock;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;

/**
 * Runs the real {@code tmem} command tree with a test's own {@link Environment}: commands that have
 * a constructor taking one get it, so no test reads the real environment or {@code ~/.claude}.
 * Failures map to exit codes and messages as {@link Tmem#run} maps them.
 */
public record TmemRun(int exitCode, String out, String err) {

  public static TmemRun tmem(Environment environment, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = new CommandLine(new Tmem(), new EnvironmentFactory(environment));
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.setExitCodeExceptionMapper(exception -> ExitCode.USAGE);
    commandLine.setExecutionExceptionHandler(
        (exception, failed, parseResult) -> {
          if (exception instanceof UserError userError) {
            failed.getErr().println("tmem: " + userError.getMessage());
            return userError.exitCode();
          }
          throw exception;
        });
    int exitCode = commandLine.execute(args);
    return new TmemRun(exitCode, out.toString(), err.toString());
  }

  /**
   * Gives every command that can take an {@link Environment} the test's one. Commands whose
   * constructor also takes a clock or standard input get the system clock and an empty input; a
   * command that takes an environment in a way this factory cannot fill is a test bug, refused
   * loudly rather than run on the real environment (which would read and write the real home).
   */
  private record EnvironmentFactory(Environment environment) implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> type) throws Exception {
      List<Constructor<?>> takingEnvironment =
          Arrays.stream(type.getConstructors())
              .filter(
                  c -> c.getParameterCount() > 0 && c.getParameterTypes()[0] == Environment.class)
              .sorted(Comparator.comparingInt(Constructor::getParameterCount))
              .toList();
      if (takingEnvironment.isEmpty()) {
        return CommandLine.defaultFactory().create(type);
      }
      for (Constructor<?> constructor : takingEnvironment) {
        Optional<Object[]> arguments = argumentsFor(constructor.getParameterTypes());
        if (arguments.isPresent()) {
          return type.cast(constructor.newInstance(arguments.get()));
        }
      }
      throw new IllegalStateException(
          "TmemRun cannot give " + type.getName() + " the test's environment");
    }

    private Optional<Object[]> argumentsFor(Class<?>[] parameters) {
      Object[] arguments = new Object[parameters.length];
      for (int i = 0; i < parameters.length; i++) {
        Class<?> parameter = parameters[i];
        if (parameter == Environment.class) {
          arguments[i] = environment;
        } else if (parameter == Clock.class) {
          arguments[i] = Clock.systemUTC();
        } else if (parameter == InputStream.class) {
          arguments[i] = InputStream.nullInputStream();
        } else {
          return Optional.empty();
        }
      }
      return Optional.of(arguments);
    }
  }
}
