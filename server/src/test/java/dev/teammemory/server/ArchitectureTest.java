package dev.teammemory.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import jakarta.persistence.Entity;
import jakarta.ws.rs.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The server's floors (docs/architecture.md), checked on the compiled classes: the ground floor
 * never reaches access or the features; access never reaches the features; features reach each
 * other only through their services — never another feature's resource or entity; and no two
 * packages depend on each other. A new package must be put on a floor here before it builds.
 */
class ArchitectureTest {

  /** Mechanisms every feature uses: no knowledge of callers, repositories or memories. */
  private static final String[] GROUND_FLOOR = {
    "..server.database..",
    "..server.errors..",
    "..server.logging..",
    "..server.http..",
    "..server.secrets..",
    "..server.limits.."
  };

  /** Who the caller is and what it may do with a repository. */
  private static final String[] ACCESS = {"..server.auth.."};

  /** What people and clients use: each a package with its resources over its services. */
  private static final String[] FEATURES = {
    "..server.memory..",
    "..server.changes..",
    "..server.stores..",
    "..server.admin..",
    "..server.console..",
    "..server.review.."
  };

  /** The process: {@code ServerMain} starts the embedded database, then Quarkus. */
  private static final String PROCESS = "dev.teammemory.server";

  private static final JavaClasses SERVER =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.teammemory.server");

  @Test
  void noTwoPackagesDependOnEachOther() {
    slices().matching("dev.teammemory.server.(*)..").should().beFreeOfCycles().check(SERVER);
  }

  @Test
  void everyPackageIsOnAFloor() {
    classes()
        .should()
        .resideInAnyPackage(concat(concat(GROUND_FLOOR, ACCESS), concat(FEATURES, PROCESS)))
        .check(SERVER);
  }

  @Test
  void theGroundFloorNeverReachesAccessOrTheFeatures() {
    noClasses()
        .that()
        .resideInAnyPackage(GROUND_FLOOR)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(concat(ACCESS, FEATURES))
        .check(SERVER);
  }

  @Test
  void accessNeverReachesTheFeatures() {
    noClasses()
        .that()
        .resideInAnyPackage(ACCESS)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(FEATURES)
        .check(SERVER);
  }

  @Test
  void resourcesAndEntitiesAreNeverReachedFromAnotherPackage() {
    classes()
        .that()
        .areAnnotatedWith(Path.class)
        .or()
        .areAnnotatedWith(Entity.class)
        .should(onlyBeReachedFromTheirOwnPackage())
        .check(SERVER);
  }

  private static ArchCondition<JavaClass> onlyBeReachedFromTheirOwnPackage() {
    return new ArchCondition<>("only be reached from their own package") {
      @Override
      public void check(JavaClass target, ConditionEvents events) {
        for (Dependency dependency : target.getDirectDependenciesToSelf()) {
          JavaClass origin = dependency.getOriginClass();
          if (!origin.getPackageName().equals(target.getPackageName())) {
            events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
          }
        }
      }
    };
  }

  private static String[] concat(String[] first, String... rest) {
    return Stream.concat(Arrays.stream(first), Arrays.stream(rest)).toArray(String[]::new);
  }
}
