package dev.teammemory.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

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
import java.io.IOException;
import java.nio.file.Files;
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
 * The server's floors (docs/architecture.md), checked on the compiled classes: the ground floor
 * never reaches access or the features; access never reaches the features; features reach each
 * other only through their services — never another feature's resource or entity; resources are
 * thin (no SQL, no persistence: that is their services'); no two packages depend on each other; and
 * each package imports exactly the packages and modules the document's table says it may. A new
 * package must be put on a floor here, and in that table, before it builds.
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

  /** The document whose package table is the allow-list (the test runs in {@code server/}). */
  private static final java.nio.file.Path DOCUMENT =
      java.nio.file.Path.of("../docs/architecture.md");

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

  /**
   * A resource is an adapter: it parses, checks access and maps outcomes to answers. Reading or
   * writing the database is its service's work, where a transaction and a test can reach it.
   */
  @Test
  void resourcesAreThin() {
    noClasses()
        .that()
        .areAnnotatedWith(Path.class)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "java.sql..", "javax.sql..", "jakarta.persistence..", "io.quarkus.hibernate..")
        .check(SERVER);
  }

  /**
   * The table of docs/architecture.md's "The server's packages" is the allow-list: each package
   * imports exactly what its row names (server packages, {@code shared-protocol}, {@code
   * secret-rules}; a parenthesis narrows a name to classes and is not checked), and every package
   * has a row. An import the row does not name, or a name no class needs any more, fails here, so
   * the document cannot drift from the code.
   */
  @Test
  void eachPackageImportsWhatTheArchitectureDocumentSays() throws IOException {
    Map<String, Set<String>> documented = documentedImports();
    Map<String, Set<String>> actual = new TreeMap<>();
    for (JavaClass origin : SERVER) {
      String from = serverPackage(origin.getPackageName());
      if (from.isEmpty()) {
        continue; // the process (ServerMain) is on no floor and in no row
      }
      Set<String> imports = actual.computeIfAbsent(from, unused -> new TreeSet<>());
      for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
        String target = dependency.getTargetClass().getPackageName();
        String name =
            target.startsWith("dev.teammemory.server.")
                ? serverPackage(target)
                : target.startsWith("dev.teammemory.protocol")
                    ? "shared-protocol"
                    : target.startsWith("dev.teammemory.secrets") ? "secret-rules" : "";
        if (!name.isEmpty() && !name.equals(from)) {
          imports.add(name);
        }
      }
    }
    assertThat(actual)
        .as("each server package's imports (left) against docs/architecture.md's table (right)")
        .isEqualTo(documented);
  }

  /** {@code memory} for {@code dev.teammemory.server.memory.x}; empty for the root package. */
  private static String serverPackage(String packageName) {
    String prefix = "dev.teammemory.server.";
    if (!packageName.startsWith(prefix)) {
      return "";
    }
    String rest = packageName.substring(prefix.length());
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }

  /** The rows of the server's package table: each package with the names of its third cell. */
  private static Map<String, Set<String>> documentedImports() throws IOException {
    List<String> lines = Files.readAllLines(DOCUMENT);
    int start = lines.indexOf("## The server's packages");
    assertThat(start).as("the section \"## The server's packages\" in " + DOCUMENT).isNotNegative();
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
      Set<String> imports = new TreeSet<>(backticked(cells[3].replaceAll("\\([^)]*\\)", "")));
      documented.put(name, imports);
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

  private static String[] concat(String[] first, String... rest) {
    return Stream.concat(Arrays.stream(first), Arrays.stream(rest)).toArray(String[]::new);
  }
}
