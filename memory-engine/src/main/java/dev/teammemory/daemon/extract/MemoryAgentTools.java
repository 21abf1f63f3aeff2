package dev.teammemory.daemon.extract;

import dev.teammemory.daemon.model.AgentTool;
import dev.teammemory.daemon.model.FileEditTool;
import java.nio.file.Path;
import java.util.List;

/**
 * The tools of a background memory agent (the extractor, the dream): Read, Grep, Glob, Bash, Edit
 * and Write. They do whatever they are asked; a {@link MemoryWriteGate} decides beforehand what may
 * run.
 */
public final class MemoryAgentTools {

  private MemoryAgentTools() {}

  /**
   * @param workingDirectory where shell commands run
   */
  public static List<AgentTool> tools(Path workingDirectory) {
    return List.of(
        new ReadTool(),
        new GrepTool(workingDirectory),
        new GlobTool(workingDirectory),
        new BashTool(workingDirectory),
        new FileEditTool(),
        new WriteTool());
  }
}
