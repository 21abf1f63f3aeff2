package dev.teammemory.server.memory;

/** What a kept version did to its memory, as the Memory Stores API names it. */
public enum Operation {
  CREATED("created"),
  MODIFIED("modified"),
  DELETED("deleted"),
  /** The tombstone a rename leaves at the old key: no memory's version, only the key's. */
  MOVED("moved");

  private final String wireName;

  Operation(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }
}
