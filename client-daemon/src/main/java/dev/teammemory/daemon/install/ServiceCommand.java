package dev.teammemory.daemon.install;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What {@code tmem daemon install} and {@code uninstall} share: the host they act on (the real
 * machine, or a test's temporary one) and its service manager.
 */
abstract class ServiceCommand implements Callable<Integer> {

  private final Supplier<Host> host;

  @Spec CommandSpec spec;

  ServiceCommand() {
    this.host = Host::current;
  }

  ServiceCommand(Host host) {
    requireNonNull(host, "host is null");
    this.host = () -> host;
  }

  @Override
  public final Integer call() throws IOException {
    Host current = host.get();
    return run(
        current,
        ServiceManager.forOperatingSystem(current.operatingSystem()),
        spec.commandLine().getOut());
  }

  abstract Integer run(Host host, ServiceManager manager, PrintWriter out) throws IOException;
}
