package dev.teammemory.daemon.model;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Builds a tool's JSON input schema: an object whose properties each have a type and a description
 * for the model, and the names it must give.
 */
public final class InputSchema {

  private final ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
  private final ObjectNode properties = schema.putObject("properties");
  private final ArrayNode required = JsonNodeFactory.instance.arrayNode();

  private InputSchema() {}

  public static InputSchema object() {
    return new InputSchema();
  }

  public InputSchema string(String name, String description) {
    return property(name, "string", description);
  }

  /** A string property that takes one of {@code allowed}. */
  public InputSchema oneOf(String name, String description, String... allowed) {
    ArrayNode values = properties.putObject(name).put("type", "string").putArray("enum");
    for (String value : allowed) {
      values.add(value);
    }
    ((ObjectNode) properties.get(name)).put("description", description);
    return this;
  }

  public InputSchema integer(String name, String description) {
    return property(name, "integer", description);
  }

  public InputSchema bool(String name, String description) {
    return property(name, "boolean", description);
  }

  public InputSchema required(String... names) {
    for (String name : names) {
      required.add(name);
    }
    return this;
  }

  /** Refuses properties the schema does not name. */
  public ObjectNode closed() {
    return build().put("additionalProperties", false);
  }

  public ObjectNode build() {
    ObjectNode built = schema.deepCopy();
    if (!required.isEmpty()) {
      built.set("required", required.deepCopy());
    }
    return built;
  }

  private InputSchema property(String name, String type, String description) {
    properties.putObject(name).put("type", type).put("description", description);
    return this;
  }
}
