package dev.teammemory.server.auth;

/** What a caller may do with one repository, as GitHub's pull and push permissions. */
public enum Permission {
  NONE,
  READ,
  WRITE;

  public boolean allowsRead() {
    return this != NONE;
  }

  public boolean allowsWrite() {
    return this == WRITE;
  }

  /** The stronger of the two. */
  public Permission or(Permission other) {
    return compareTo(other) >= 0 ? this : other;
  }
}
