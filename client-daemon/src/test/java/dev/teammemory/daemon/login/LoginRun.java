package dev.teammemory.daemon.login;

import dev.teammemory.daemon.cli.Tmem;
import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import picocli.CommandLine;

/**
 * Runs the real {@code tmem} command tree with a test's environment, and {@code tmem login} with
 * the test's sleeper and clock. Failures map to exit codes and messages as {@link Tmem#run} maps
 * them; anything else fails the test with its stack trace.
 */
record LoginRun(int exitCode, String out, String err) {

  static LoginRun tmem(Environment environment, RecordingSleeper sleeper, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = new CommandLine(new Tmem(), new Factory(environment, sleeper));
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
    return new LoginRun(exitCode, out.toString(), err.toString());
  }

  private record Factory(Environment environment, RecordingSleeper sleeper)
      implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> type) throws Exception {
      if (type == LoginCommand.class) {
        return type.cast(new LoginCommand(environment, sleeper, sleeper.clock()));
      }
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
