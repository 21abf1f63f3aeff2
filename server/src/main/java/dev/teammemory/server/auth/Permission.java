package dev.teammemory.server.auth;

/**
 * What a caller may do with one repository, weakest first, as GitHub's permissions: {@code pull}
 * reads, {@code push} writes, {@code maintain} also reviews teammates' changes, {@code admin} also
 * changes the repository's settings. Each level allows everything below it.
 */
public enum Permission {
  NONE,
  READ,
  WRITE,
  REVIEW,
  ADMIN;

  public boolean allowsRead() {
    return this != NONE;
  }

  public boolean allowsWrite() {
    return compareTo(WRITE) >= 0;
  }

  /** Approves or rejects changes waiting for review, and sees them. */
  public boolean allowsReview() {
    return compareTo(REVIEW) >= 0;
  }

  /** Changes the repository's settings. */
  public boolean allowsAdministration() {
    return this == ADMIN;
  }

  /** The stronger of the two. */
  public Permission or(Permission other) {
    return compareTo(other) >= 0 ? this : other;
  }
}
