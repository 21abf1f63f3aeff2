package dev.teammemory.daemon.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class InputSchemaTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void buildsAnObjectSchemaWithTypedDescribedPropertiesAndTheRequiredNames() throws Exception {
    var schema =
        InputSchema.object()
            .string("pattern", "what to find")
            .integer("limit", "how many")
            .bool("-i", "ignore case")
            .oneOf("mode", "how to answer", "files", "lines")
            .required("pattern")
            .build();

    assertThat(schema)
        .isEqualTo(
            JSON.readTree(
                """
                {"type":"object","properties":{
                  "pattern":{"type":"string","description":"what to find"},
                  "limit":{"type":"integer","description":"how many"},
                  "-i":{"type":"boolean","description":"ignore case"},
                  "mode":{"type":"string","enum":["files","lines"],"description":"how to answer"}},
                 "required":["pattern"]}
                """));
  }

  @Test
  void aClosedSchemaRefusesOtherPropertiesAndNoRequiredListIsLeftOut() throws Exception {
    var schema = InputSchema.object().string("path", "where").closed();

    assertThat(schema)
        .isEqualTo(
            JSON.readTree(
                """
                {"type":"object","properties":{"path":{"type":"string","description":"where"}},
                 "additionalProperties":false}
                """));
  }
}
