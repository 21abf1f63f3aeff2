package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Decides, for every tool call a model-driven agent makes, whether it runs: the reference's {@code
 * canUseTool}. The caller supplies the gate and {@link ModelAgent} consults it before any tool
 * executes, so what an agent may touch is enforced in code, not asked for in a prompt.
 */
@FunctionalInterface
public interface PermissionGate {

  Permission check(String toolName, JsonNode input);

  /**
   * Allows only the {@value FileEditTool#NAME} tool, and only on exactly this file: what the
   * session-notes agent may do. The path is compared after normalisation, so {@code ..} segments
   * cannot reach another file; relative paths are refused.
   */
  static PermissionGate onlyEditing(Path file) {
    requireNonNull(file, "file is null");
    Path allowed = file.toAbsolutePath().normalize();
    String denial = "only " + FileEditTool.NAME + " on " + allowed + " is allowed";
    return (toolName, input) -> {
      if (!toolName.equals(FileEditTool.NAME)) {
        return new Permission.Deny(denial);
      }
      JsonNode filePath = input.get("file_path");
      if (filePath == null || !filePath.isTextual()) {
        return new Permission.Deny(denial);
      }
      try {
        Path requested = Path.of(filePath.asText());
        if (requested.isAbsolute() && requested.normalize().equals(allowed)) {
          return new Permission.Allow(input);
        }
      } catch (InvalidPathException notAPath) {
        // Denied below like any other path.
      }
      return new Permission.Deny(denial);
    };
  }
}
