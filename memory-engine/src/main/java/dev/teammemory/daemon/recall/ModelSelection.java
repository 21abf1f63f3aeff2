package dev.teammemory.daemon.recall;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.memory.MemoryHeader;
import dev.teammemory.daemon.memory.MemoryScan;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.ModelOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Asks a model which memories are relevant, as the reference's selector does: the query, the
 * manifest of candidate files and the recently used tools go in; a structured {@code
 * selected_memories} list of file names comes out. Names the model invents are dropped.
 */
final class ModelSelection {

  static final String SYSTEM_PROMPT =
      """
      You are selecting memories that will be useful to Claude Code as it processes a user's query. \
      You will be given the user's query and a list of available memory files with their filenames \
      and descriptions.

      Return a list of filenames for the memories that will clearly be useful to Claude Code as it \
      processes the user's query (up to 5). Only include memories that you are certain will be \
      helpful based on their name and description.
      - If you are unsure if a memory will be useful in processing the user's query, then do not \
      include it in your list. Be selective and discerning.
      - If there are no memories in the list that would clearly be useful, feel free to return an \
      empty list.
      - If a list of recently-used tools is provided, do not select memories that are usage \
      reference or API documentation for those tools (Claude Code is already exercising them). DO \
      still select memories containing warnings, gotchas, or known issues about those tools — \
      active use is exactly when those matter.
      """;

  static final String TOOL_NAME = "select_memories";
  private static final int MAX_TOKENS = 256;
  private static final ObjectMapper JSON = new ObjectMapper();

  private ModelSelection() {}

  static String prompt(String query, List<MemoryHeader> candidates, List<String> recentTools) {
    String tools =
        recentTools.isEmpty() ? "" : "\n\nRecently used tools: " + String.join(", ", recentTools);
    return "Query: "
        + query
        + "\n\nAvailable memories:\n"
        + MemoryScan.manifest(candidates)
        + tools;
  }

  static ModelOutcome<List<String>> select(
      AnthropicLanguageModel model,
      String query,
      List<MemoryHeader> candidates,
      List<String> recentTools) {
    ModelOutcome<JsonNode> answer =
        model.structured(
            model.settings().recallModel(),
            MAX_TOKENS,
            SYSTEM_PROMPT,
            prompt(query, candidates, recentTools),
            TOOL_NAME,
            "Return the filenames of the memories that will clearly be useful for the query.",
            schema());
    return switch (answer) {
      case ModelOutcome.Failed<JsonNode> failed -> new ModelOutcome.Failed<>(failed.failure());
      case ModelOutcome.Answered<JsonNode> answered -> {
        Set<String> valid =
            candidates.stream().map(MemoryHeader::filename).collect(Collectors.toSet());
        List<String> selected = new ArrayList<>();
        for (JsonNode filename : answered.value().path("selected_memories")) {
          if (filename.isTextual()
              && valid.contains(filename.asText())
              && !selected.contains(filename.asText())) {
            selected.add(filename.asText());
          }
        }
        yield new ModelOutcome.Answered<>(List.copyOf(selected));
      }
    };
  }

  static ObjectNode schema() {
    ObjectNode schema = JSON.createObjectNode();
    schema.put("type", "object");
    schema
        .putObject("properties")
        .putObject("selected_memories")
        .put("type", "array")
        .putObject("items")
        .put("type", "string");
    schema.putArray("required").add("selected_memories");
    schema.put("additionalProperties", false);
    return schema;
  }
}
