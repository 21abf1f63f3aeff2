package dev.teammemory.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Parses {@code deploy/compose} and checks that the server and its PostgreSQL fit together. */
class ComposeFileTest {

  private static final String REQUIRED_PASSWORD =
      "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in deploy/compose/.env (see .env.example)}";

  private final Path folder = DeployFiles.deploy().resolve("compose");
  private final YamlNode compose = DeployFiles.yaml(folder.resolve("compose.yaml"));
  private final YamlNode postgres = compose.get("services", "postgres");
  private final YamlNode server = compose.get("services", "server");

  /** {@code NAME=value} lines of .env.example, comments left out. */
  private Map<String, String> exampleSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String line : DeployFiles.read(folder.resolve(".env.example")).lines().toList()) {
      if (!line.isBlank() && !line.startsWith("#")) {
        int equals = line.indexOf('=');
        assertThat(equals).as(".env.example line " + line).isPositive();
        settings.put(line.substring(0, equals), line.substring(equals + 1));
      }
    }
    return settings;
  }

  @Test
  void serverStartsOnlyOnceItsPostgresIsHealthy() {
    assertThat(server.get("depends_on", "postgres", "condition").text())
        .isEqualTo("service_healthy");
    assertThat(postgres.get("healthcheck", "test").list())
        .extracting(YamlNode::text)
        .contains("pg_isready");
  }

  @Test
  void postgresKeepsItsDataOnANamedVolume() {
    List<String> volumes = postgres.get("volumes").list().stream().map(YamlNode::text).toList();

    assertThat(volumes).containsExactly("postgres-data:/var/lib/postgresql/data");
    assertThat(compose.get("volumes").map()).containsKey("postgres-data");
  }

  @Test
  void thePasswordComesFromTheEnvFileAndIsRequired() {
    assertThat(postgres.get("environment", "POSTGRES_PASSWORD").text())
        .isEqualTo(REQUIRED_PASSWORD);
    assertThat(server.get("environment", "QUARKUS_DATASOURCE_PASSWORD").text())
        .isEqualTo(REQUIRED_PASSWORD);
    assertThat(server.get("env_file").list()).extracting(YamlNode::text).containsExactly(".env");
    assertThat(exampleSettings().get("POSTGRES_PASSWORD")).startsWith("CHANGE-ME");
    assertThat(DeployFiles.read(folder.resolve(".env.example"))).contains("chmod 600 .env");
  }

  @Test
  void serverConnectsToTheComposeDatabaseAsItsUser() {
    String database = postgres.get("environment", "POSTGRES_DB").text();

    assertThat(server.get("environment", "QUARKUS_DATASOURCE_JDBC_URL").text())
        .isEqualTo("jdbc:postgresql://postgres:5432/" + database);
    assertThat(server.get("environment", "QUARKUS_DATASOURCE_USERNAME").text())
        .isEqualTo(postgres.get("environment", "POSTGRES_USER").text());
    assertThat(postgres.has("ports")).as("PostgreSQL is not published").isFalse();
  }

  @Test
  void serverIsBuiltFromTheContainerImageDefinition() {
    Path context = folder.resolve(server.get("build", "context").text()).normalize();

    assertThat(context).isEqualTo(DeployFiles.repository());
    assertThat(context.resolve(server.get("build", "dockerfile").text()))
        .isEqualTo(DeployFiles.deploy().resolve("container/Dockerfile"))
        .exists();
  }

  @Test
  void publishedPortReachesTheImagesPort() {
    List<String> ports = server.get("ports").list().stream().map(YamlNode::text).toList();

    assertThat(ports).containsExactly("${HTTP_PORTS:-8080}:8080");
    assertThat(server.get("environment", "QUARKUS_HTTP_PORT").text()).isEqualTo("8080");
  }

  @Test
  void replicasAreASettingForTwoServersOnOneDatabase() {
    assertThat(server.get("deploy", "replicas").text()).isEqualTo("${SERVER_REPLICAS:-1}");
    assertThat(exampleSettings()).containsKeys("SERVER_REPLICAS", "HTTP_PORTS");
    assertThat(DeployFiles.read(folder.resolve("compose.yaml")))
        .contains("SERVER_REPLICAS=2 HTTP_PORTS=8080-8081 docker compose up -d");
  }

  @Test
  void everyServerSettingInTheEnvFileIsOneTheServerReads() {
    Set<String> serverSettings = new TreeSet<>();
    for (String name : exampleSettings().keySet()) {
      if (name.startsWith("TMEM_") || name.startsWith("QUARKUS_")) {
        serverSettings.add(name);
      }
    }
    serverSettings.addAll(server.get("environment").map().keySet());

    assertThat(serverSettings).contains("TMEM_AUTH_GITHUB_CLIENT_ID", "TMEM_LIMITS_MAX_ENTRIES");
    assertThat(DeployFiles.unknownToTheServer(serverSettings)).isEmpty();
  }

  @Test
  void staticTokensOverrideMountsTheFileWhereTheServerLooks() {
    YamlNode override = DeployFiles.yaml(folder.resolve("compose.static-tokens.yaml"));
    YamlNode overridden = override.get("services", "server");
    String target = overridden.get("secrets").list().getFirst().get("target").text();
    String source = overridden.get("secrets").list().getFirst().get("source").text();

    assertThat(overridden.get("environment", "TMEM_AUTH_STATIC_TOKENS_FILE").text())
        .isEqualTo(target);
    assertThat(override.get("secrets", source, "file").text()).isEqualTo("./tokens.txt");
    assertThat(DeployFiles.unknownToTheServer(Set.of("TMEM_AUTH_STATIC_TOKENS_FILE"))).isEmpty();
  }

  @Test
  void noRealEnvFileOrTokensFileIsCommitted() {
    assertThat(folder.resolve(".env")).doesNotExist();
    assertThat(folder.resolve("tokens.txt")).doesNotExist();
    assertThat(Files.exists(folder.resolve(".env.example"))).isTrue();
  }
}
