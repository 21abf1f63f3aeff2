package dev.teammemory.daemon.memory;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a memory is the user's alone or the team's, and so which directory it belongs in. The
 * type decides by default: {@code user} memories are always private; {@code feedback} is private
 * unless it states a project-wide convention; {@code project} leans to the team; {@code reference}
 * usually goes to the team. Without team memory everything is private.
 */
public enum MemoryScope {
  PRIVATE,
  TEAM;

  /** What the writer knows about who a memory is for, beyond its type. */
  public enum Audience {
    /** Nothing beyond the type: the type's default applies. */
    UNSTATED,
    /** About this user's own way of working. */
    PERSONAL,
    /** A convention or fact that holds for everyone on the project. */
    PROJECT_WIDE
  }

  /**
   * Routes a memory.
   *
   * @param type the memory's type; an unknown type stays private, the safe side
   * @param teamActive whether team memory is in use at all
   */
  public static MemoryScope route(
      Optional<MemoryType> type, Audience audience, boolean teamActive) {
    requireNonNull(type, "type is null");
    requireNonNull(audience, "audience is null");
    if (!teamActive || type.isEmpty()) {
      return PRIVATE;
    }
    return switch (type.get()) {
      case USER -> PRIVATE;
      case FEEDBACK -> audience == Audience.PROJECT_WIDE ? TEAM : PRIVATE;
      case PROJECT, REFERENCE -> audience == Audience.PERSONAL ? PRIVATE : TEAM;
    };
  }

  /** The directory memories of this scope are written to. */
  public Path directory(MemoryLocation location) {
    return switch (this) {
      case PRIVATE -> location.directory();
      case TEAM -> location.teamDirectory();
    };
  }

  /** The scope a file in memory is in: the team's when it is under {@code team/}. */
  public static MemoryScope of(Path file, MemoryLocation location) {
    return file.toAbsolutePath().normalize().startsWith(location.teamDirectory()) ? TEAM : PRIVATE;
  }

  /** The guidance a model is given about where each type goes, as the reference's scope tags. */
  public static String guidance(MemoryType type) {
    return switch (type) {
      case USER -> "always private: personal role and preferences are never shared";
      case FEEDBACK ->
          "private by default; team only for project-wide conventions (testing policy, build"
              + " invariants), never for personal style";
      case PROJECT -> "strongly biased to team: most project context is shared knowledge";
      case REFERENCE -> "usually team: pointers to external systems are useful to everyone";
    };
  }
}
