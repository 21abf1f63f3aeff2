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

  @Test
  void memoryStoresMigrationOnlyAddsToTheSchema() throws IOException {
    try (InputStream in =
        getClass().getClassLoader().getResourceAsStream("db/migration/V2__memory_stores.sql")) {
      assertThat(in).as("db/migration/V2__memory_stores.sql on the classpath").isNotNull();
      String sql =
          new String(in.readAllBytes(), StandardCharsets.UTF_8)
              .replaceAll("--[^\n]*", "") // comments may say what is never done
              .toUpperCase(java.util.Locale.ROOT);
      // A replica of the previous release runs on this schema during a rolling upgrade.
      assertThat(sql)
          .contains("ADD COLUMN STORE_ID")
          .contains("ADD COLUMN MEMORY_ID")
          .doesNotContain("DROP COLUMN")
          .doesNotContain("DROP TABLE")
          .doesNotContain("RENAME");
    }
  }
}
