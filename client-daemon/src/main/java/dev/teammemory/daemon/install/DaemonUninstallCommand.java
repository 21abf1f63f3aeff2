package dev.teammemory.daemon.install;

import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.UserError;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tmem daemon uninstall}: stops the service {@code tmem daemon install} set up and removes
 * its unit file. Leaves the settings file, and any unit file it did not write unless forced.
 */
@Command(
    name = "uninstall",
    mixinStandardHelpOptions = true,
    description = {
      "Stop the daemon's service and remove the unit that `tmem daemon install` wrote.",
      "Your settings (~/.config/tmem/env), login and memory stay."
    })
public final class DaemonUninstallCommand extends ServiceCommand {

  @Option(
      names = "--force",
      description = "Remove the unit file even if `tmem daemon install` did not write it.")
  boolean force;

  public DaemonUninstallCommand() {}

  DaemonUninstallCommand(Host host) {
    super(host);
  }

  @Override
  Integer run(Host host, ServiceManager manager, PrintWriter out) throws IOException {
    Path unitPath = manager.unitFile(host);
    UnitFile unit = new UnitFile(unitPath);
    if (!unit.exists()) {
      out.println("Nothing to uninstall: " + unitPath + " does not exist.");
      out.flush();
      return ExitCode.OK;
    }
    if (!force && !unit.writtenByInstall()) {
      throw UserError.problem(
          unitPath
              + " was not written by `tmem daemon install`; remove it yourself, or rerun with"
              + " --force");
    }
    if (ServiceControl.available(host, manager)) {
      ServiceControl.runAll(host, manager.stopCommands(unitPath), out);
    } else {
      out.println(manager.controlCommand() + " is not on PATH: nothing to stop.");
    }
    unit.delete();
    out.println("Removed " + unitPath + ".");
    if (ServiceControl.available(host, manager)) {
      ServiceControl.runAll(host, manager.afterRemovalCommands(), out);
    }
    out.println("Kept your settings in " + host.environmentFile() + ".");
    out.flush();
    return ExitCode.OK;
  }
}
