package dev.teammemory.protocol.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the suite reads its configuration; needs no server. */
class SuiteConfigTest {

  private static final Map<String, String> REQUIRED =
      Map.of(
          "tmem.protocol.url", "http://localhost:8080/",
          "tmem.protocol.owner", "acme",
          "tmem.protocol.writer-token", "w",
          "tmem.protocol.reader-token", "r",
          "tmem.protocol.outsider-token", "o");

  @Test
  void missingValuesAreAllNamedWithTheirPropertyAndVariable() {
    assertThatThrownBy(
            () -> SuiteConfig.from(Map.of("tmem.protocol.owner", "acme")::get, name -> null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            """
            The protocol suite is not configured. Missing:
              tmem.protocol.url (system property -Dtmem.protocol.url=… or environment variable \
            TMEM_PROTOCOL_URL): the server's base URL
              tmem.protocol.writer-token (system property -Dtmem.protocol.writer-token=… or \
            environment variable TMEM_PROTOCOL_WRITER_TOKEN): a token with write access
              tmem.protocol.reader-token (system property -Dtmem.protocol.reader-token=… or \
            environment variable TMEM_PROTOCOL_READER_TOKEN): a token with read access only
              tmem.protocol.outsider-token (system property -Dtmem.protocol.outsider-token=… or \
            environment variable TMEM_PROTOCOL_OUTSIDER_TOKEN): a token without access""");
  }

  @Test
  void propertiesWinOverVariablesAndDefaultsFillTheRest() {
    Map<String, String> environment =
        Map.of("TMEM_PROTOCOL_OWNER", "other", "TMEM_PROTOCOL_MAX_ENTRIES", "40");

    SuiteConfig config = SuiteConfig.from(REQUIRED::get, environment::get);

    assertThat(config.url()).isEqualTo(URI.create("http://localhost:8080"));
    assertThat(config.owner()).isEqualTo("acme");
    assertThat(config.organizationId()).isEqualTo("acme");
    assertThat(config.maxEntries()).isEqualTo(40);
    assertThat(config.maxEntryBytes()).isEqualTo(250_000);
    assertThat(config.maxBodyBytes()).isEqualTo(1_048_576);
    assertThat(config.maxRepositoryBytes()).isEqualTo(50_000_000);
    assertThat(config.extensions()).isTrue();
  }

  @Test
  void anUnresolvedMavenPropertyCountsAsAbsent() {
    Map<String, String> properties = new HashMap<>(REQUIRED);
    properties.put("tmem.protocol.extensions", "${tmem.protocol.extensions}");
    Map<String, String> environment = Map.of("TMEM_PROTOCOL_EXTENSIONS", "false");

    assertThat(SuiteConfig.from(properties::get, environment::get).extensions()).isFalse();
  }

  @Test
  void theTokensNeverAppearInItsDescription() {
    Map<String, String> properties = new HashMap<>(REQUIRED);
    properties.put("tmem.protocol.writer-token", "secret-writer-token");

    assertThat(SuiteConfig.from(properties::get, name -> null).toString())
        .doesNotContain("secret-writer-token");
  }

  @Test
  void aLimitThatIsNotANumberIsNamed() {
    Map<String, String> properties = new HashMap<>(REQUIRED);
    properties.put("tmem.protocol.max-entries", "many");

    assertThatThrownBy(() -> SuiteConfig.from(properties::get, name -> null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "tmem.protocol.max-entries (or TMEM_PROTOCOL_MAX_ENTRIES) is not a number: many");
  }
}
