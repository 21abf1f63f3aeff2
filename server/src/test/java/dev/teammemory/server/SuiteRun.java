package dev.teammemory.server;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs one of {@code shared-protocol}'s conformance suites in this JVM, configured by system
 * properties exactly as another implementation's CI configures it, and prints each failure as it
 * happens so that the build log says what broke.
 */
final class SuiteRun {

  private SuiteRun() {}

  /**
   * Runs every test class in {@code suitePackage} with {@code properties} set for the run (and
   * restored afterwards); {@code name} heads the printed lines.
   */
  static TestExecutionSummary run(
      String name, String suitePackage, Map<String, String> properties) {
    Map<String, String> previous = new LinkedHashMap<>();
    properties.forEach((key, value) -> previous.put(key, System.setProperty(key, value)));
    try {
      LauncherDiscoveryRequest request =
          LauncherDiscoveryRequestBuilder.request().selectors(selectPackage(suitePackage)).build();
      SummaryGeneratingListener summary = new SummaryGeneratingListener();
      SlowestTests slowest = new SlowestTests(suitePackage);
      LauncherFactory.create()
          .execute(request, summary, new FailurePrinter(name, suitePackage), slowest);
      TestExecutionSummary result = summary.getSummary();
      System.out.printf(
          "%s: %d passed, %d failed, %d skipped; slowest: %s%n",
          name,
          result.getTestsSucceededCount(),
          result.getTestsFailedCount() + result.getContainersFailedCount(),
          result.getTestsSkippedCount() + result.getTestsAbortedCount(),
          slowest.describe(5));
      return result;
    } finally {
      previous.forEach(
          (key, value) -> {
            if (value == null) {
              System.clearProperty(key);
            } else {
              System.setProperty(key, value);
            }
          });
    }
  }

  /** A suite test's class (within the suite's package), method and display name. */
  static String testName(TestIdentifier test, String suitePackage) {
    return test.getSource()
        .filter(MethodSource.class::isInstance)
        .map(MethodSource.class::cast)
        .map(
            method ->
                method.getClassName().substring(suitePackage.length() + 1)
                    + "."
                    + method.getMethodName()
                    + " ["
                    + test.getDisplayName()
                    + "]")
        .orElse(test.getDisplayName());
  }

  /**
   * The wall time of each suite test, so that the build log says where a slow suite run goes (a
   * figure to read, never asserted: these machines are shared and noisy).
   */
  private static final class SlowestTests implements TestExecutionListener {
    private final String suitePackage;
    private final Map<TestIdentifier, Long> started = new ConcurrentHashMap<>();
    private final Map<String, Long> elapsedMillis = new ConcurrentHashMap<>();

    SlowestTests(String suitePackage) {
      this.suitePackage = suitePackage;
    }

    @Override
    public void executionStarted(TestIdentifier test) {
      if (test.isTest()) {
        started.put(test, System.nanoTime());
      }
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
      Long start = started.remove(test);
      if (start != null) {
        elapsedMillis.put(testName(test, suitePackage), (System.nanoTime() - start) / 1_000_000);
      }
    }

    String describe(int count) {
      return elapsedMillis.entrySet().stream()
          .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
          .limit(count)
          .map(entry -> entry.getKey() + " " + entry.getValue() + " ms")
          .collect(Collectors.joining(", "));
    }
  }

  /** Prints a failed test (or class) with its message. */
  private record FailurePrinter(String name, String suitePackage) implements TestExecutionListener {
    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
      if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL
          && result.getStatus() != TestExecutionResult.Status.ABORTED) {
        String message =
            result.getThrowable().map(Throwable::toString).orElse(result.getStatus().toString());
        System.out.println(
            name.toUpperCase() + " FAILURE " + testName(test, suitePackage) + ": " + message);
      }
    }
  }
}
