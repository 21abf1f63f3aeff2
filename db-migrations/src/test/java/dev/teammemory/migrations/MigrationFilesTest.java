package dev.teammemory.migrations;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MigrationFilesTest {

  @Test
  void firstMigrationIsOnTheClasspathWhereFlywayLooks() throws IOException {
    try (InputStream in =
        getClass().getClassLoader().getResourceAsStream("db/migration/V1__team_memory.sql")) {
      assertThat(in).as("db/migration/V1__team_memory.sql on the classpath").isNotNull();
      String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(sql)
          .contains("CREATE TABLE repository")
          .contains("CREATE TABLE memory_entry ")
          .contains("CREATE TABLE memory_entry_version")
          .contains("CREATE TABLE repo_access");
    }
  }
}
