package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.teammemory.daemon.files.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The projects {@code tmem add} registered, in {@code <state home>/projects.json}, written
 * atomically.
 */
public final class ProjectRegistry {

  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private final Path file;

  public ProjectRegistry(Path stateHome) {
    this.file = requireNonNull(stateHome, "stateHome is null").resolve("projects.json");
  }

  public Path file() {
    return file;
  }

  /** Every registered project, in the order they were added. */
  public List<Project> projects() throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    RegistryFile registry = JSON.readValue(file.toFile(), RegistryFile.class);
    List<Project> projects = new ArrayList<>();
    for (Entry entry : registry.projects()) {
      projects.add(
          new Project(
              entry.repo(),
              Path.of(entry.teamDir()),
              Optional.ofNullable(entry.checkout()).map(Path::of)));
    }
    return projects;
  }

  /**
   * Adds the project, replacing one registered for the same team folder or the same checkout.
   * Returns true when it was new.
   */
  public boolean add(Project project) throws IOException {
    List<Project> projects = new ArrayList<>(projects());
    // One checkout has one team folder: registering it again replaces its record.
    boolean replaced =
        projects.removeIf(
            p ->
                p.teamDir().equals(project.teamDir())
                    || (p.checkout().isPresent() && p.checkout().equals(project.checkout())));
    projects.add(project);
    List<Entry> entries = new ArrayList<>();
    for (Project p : projects) {
      entries.add(
          new Entry(
              p.repo(), p.teamDir().toString(), p.checkout().map(Path::toString).orElse(null)));
    }
    AtomicFiles.write(
        file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(new RegistryFile(entries)));
    return !replaced;
  }

  private record RegistryFile(@JsonProperty("projects") List<Entry> projects) {
    RegistryFile {
      projects = projects == null ? List.of() : List.copyOf(projects);
    }
  }

  @JsonInclude(JsonInclude.Include.NON_NULL)
  private record Entry(
      @JsonProperty("repo") String repo,
      @JsonProperty("teamDir") String teamDir,
      @JsonProperty("checkout") String checkout) {}
}
