package dev.teammemory.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.teammemory.server.github.FakeGitHubResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URL;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = FakeGitHubResource.class, restrictToAnnotatedClass = false)
class ServerBootTest {

  @Inject Flyway flyway;

  @Test
  void serverIsReadyOnPostgres() {
    given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
  }

  @Test
  void flywayAppliedTheMigrationsOfTheDbMigrationsModule() {
    // Quarkus tests see the module's classes folder; ServerJarIT proves the packaged jar's path.
    URL migration = getClass().getClassLoader().getResource("db/migration/V1__team_memory.sql");
    assertThat(migration).isNotNull();
    assertThat(migration.getPath()).contains("db-migrations");

    assertThat(flyway.info().applied())
        .extracting(MigrationInfo::getScript)
        .anySatisfy(script -> assertThat(script).endsWith("V1__team_memory.sql"));
  }
}
