package dev.teammemory.daemon;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The daemon's floors (docs/architecture.md), checked on the compiled classes: the libraries on the
 * ground floor never reach the adapters upstairs or picocli, the memory engine needs neither sync
 * nor login, only {@code cli.Tmem}'s own package names the commands, no agent adapter runs another,
 * no two packages depend on each other, and each package imports exactly what the document's table
 * says it may. A new package must be put on a floor here, and in that table, before it builds.
 */
class ArchitectureTest {

  /** The memory engine: usable without the CLI, sync, login or install. */
  private static final String[] ENGINE = {
    "..daemon.transcript..",
    "..daemon.model..",
    "..daemon.memory..",
    "..daemon.recall..",
    "..daemon.notes..",
    "..daemon.compact..",
    "..daemon.extract..",
    "..daemon.dream..",
    "..daemon.dailylog.."
  };

  /**
   * Libraries: the engine, memory's answers to an agent's events (which hooks, the local API, MCP
   * and Codex adapt), team sync, and the places for files, state and secrets.
   */
  private static final String[] GROUND_FLOOR =
      concat(
          ENGINE,
          "..daemon.agent..",
          "..daemon.watch..",
          "..daemon.sync..",
          "..daemon.files..",
          "..daemon.home..",
          "..daemon.secrets..");

  /** Adapters: they turn outcomes into text, JSON, exit codes and HTTP answers. */
  private static final String[] UPPER_FLOOR = {
    "..daemon.cli..",
    "..daemon.command..",
    "..daemon.hook..",
    "..daemon.api..",
    "..daemon.run..",
    "..daemon.install..",
    "..daemon.login.."
  };

  /** The document whose package tables are the allow-lists (the test runs in the module). */
  private static final Path DOCUMENT = Path.of("../docs/architecture.md");

  private static final JavaClasses DAEMON =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.teammemory.daemon");

  @Test
  void noTwoPackagesDependOnEachOther() {
    slices().matching("dev.teammemory.daemon.(*)..").should().beFreeOfCycles().check(DAEMON);
  }

  @Test
  void everyPackageIsOnAFloor() {
    classes().should().resideInAnyPackage(concat(GROUND_FLOOR, UPPER_FLOOR)).check(DAEMON);
  }

  @Test
  void theGroundFloorNeverReachesTheAdaptersOrPicocli() {
    noClasses()
        .that()
        .resideInAnyPackage(GROUND_FLOOR)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(concat(UPPER_FLOOR, "picocli.."))
        .check(DAEMON);
  }

  @Test
  void theEngineNeedsNeitherSyncNorLogin() {
    noClasses()
        .that()
        .resideInAnyPackage(ENGINE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("..daemon.sync..", "..daemon.watch..", "dev.teammemory.protocol..")
        .check(DAEMON);
  }

  /**
   * The hook commands, the local API and MCP are adapters over {@code agent}: none answers an agent
   * by running another (the local API once ran {@code tmem hook}'s picocli commands).
   */
  @Test
  void noAgentAdapterRunsAnother() {
    noClasses()
        .that()
        .resideInAPackage("..daemon.api..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("..daemon.hook..")
        .check(DAEMON);
    noClasses()
        .that()
        .resideInAPackage("..daemon.hook..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("..daemon.api..")
        .check(DAEMON);
  }

  @Test
  void onlyTheCliPackageUsesTheCli() {
    noClasses()
        .that()
        .resideOutsideOfPackage("..daemon.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("..daemon.cli..")
        .check(DAEMON);
  }

  /**
   * The table of docs/architecture.md's "The daemon's packages" is the allow-list: each package
   * imports exactly what its row names (daemon packages, {@code shared-protocol}, {@code
   * secret-rules}; a parenthesis narrows a name and is not checked), except {@code cli}, which may
   * import everything, and every package has a row. An import the row does not name, or a name no
   * class needs any more, fails here, so the document cannot drift from the code.
   */
  @Test
  void eachPackageImportsWhatTheArchitectureDocumentSays() throws IOException {
    Map<String, Set<String>> documented = documentedImports();
    Map<String, Set<String>> actual = new TreeMap<>();
    for (JavaClass origin : DAEMON) {
      String from = daemonPackage(origin.getPackageName());
      if (from.isEmpty()) {
        continue;
      }
      Set<String> imports = actual.computeIfAbsent(from, unused -> new TreeSet<>());
      for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
        String target = dependency.getTargetClass().getPackageName();
        String name =
            target.startsWith("dev.teammemory.daemon.")
                ? daemonPackage(target)
                : target.startsWith("dev.teammemory.protocol")
                    ? "shared-protocol"
                    : target.startsWith("dev.teammemory.secrets") ? "secret-rules" : "";
        if (!name.isEmpty() && !name.equals(from)) {
          imports.add(name);
        }
      }
    }
    // The CLI may import everything: only its row's presence is checked.
    actual.computeIfPresent("cli", (name, imports) -> Set.of(EVERYTHING));
    assertThat(actual)
        .as("each daemon package's imports (left) against docs/architecture.md's table (right)")
        .isEqualTo(documented);
  }

  private static final String EVERYTHING = "everything";

  /** {@code sync} for {@code dev.teammemory.daemon.sync.x}; empty for the root package. */
  private static String daemonPackage(String packageName) {
    String prefix = "dev.teammemory.daemon.";
    if (!packageName.startsWith(prefix)) {
      return "";
    }
    String rest = packageName.substring(prefix.length());
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }

  /** The rows of the daemon's package table: each package with the names of its third cell. */
  private static Map<String, Set<String>> documentedImports() throws IOException {
    List<String> lines = Files.readAllLines(DOCUMENT);
    int start = lines.indexOf("## The daemon's packages");
    assertThat(start).as("the section \"## The daemon's packages\" in " + DOCUMENT).isNotNegative();
    Map<String, Set<String>> documented = new TreeMap<>();
    for (String line : lines.subList(start + 1, lines.size())) {
      if (line.startsWith("## ")) {
        break;
      }
      if (!line.startsWith("| `")) {
        continue;
      }
      String[] cells = line.split("\\|");
      String name = backticked(cells[1]).getFirst();
      String allowed = cells[cells.length - 1].trim();
      documented.put(
          name,
          allowed.equals(EVERYTHING)
              ? Set.of(EVERYTHING)
              : new TreeSet<>(backticked(allowed.replaceAll("\\([^)]*\\)", ""))));
    }
    return documented;
  }

  private static List<String> backticked(String cell) {
    List<String> names = new ArrayList<>();
    Matcher matcher = Pattern.compile("`([^`]+)`").matcher(cell);
    while (matcher.find()) {
      names.add(matcher.group(1));
    }
    return names;
  }

  private static String[] concat(String[] first, String... more) {
    return Stream.concat(Arrays.stream(first), Arrays.stream(more)).toArray(String[]::new);
  }
}
