package dev.teammemory.daemon.testing;

import dev.teammemory.daemon.cli.Tmem;
import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
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

  private record EnvironmentFactory(Environment environment) implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> type) throws Exception {
      for (Constructor<?> constructor : type.getConstructors()) {
        if (constructor.getParameterCount() == 1
            && constructor.getParameterTypes()[0] == Environment.class) {
          return type.cast(constructor.newInstance(environment));
        }
      }
      return CommandLine.defaultFactory().create(type);
    }
  }
}
