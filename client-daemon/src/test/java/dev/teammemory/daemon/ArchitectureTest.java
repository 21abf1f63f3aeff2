package dev.teammemory.daemon;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The daemon's floors (docs/architecture.md), checked on the compiled classes: the libraries on the
 * ground floor never reach the adapters upstairs or picocli, the memory engine needs neither sync
 * nor login, only {@code cli.Tmem}'s own package names the commands, no agent adapter runs another,
 * and no two packages depend on each other. A new package must be put on a floor here before it
 * builds.
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

  private static String[] concat(String[] first, String... more) {
    return Stream.concat(Arrays.stream(first), Arrays.stream(more)).toArray(String[]::new);
  }
}
