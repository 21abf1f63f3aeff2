package dev.teammemory.server.stores;

import static java.util.Objects.requireNonNull;

import dev.teammemory.server.memory.MemoryRow;

/** One row of a memory listing: a memory, or (at depth 1) a folder that holds memories. */
sealed interface ListedItem {

  /** The item's place in the listing's order: the key, or the folder's key with its {@code /}. */
  String sortKey();

  record Memory(MemoryRow row) implements ListedItem {
    public Memory {
      requireNonNull(row, "row is null");
    }

    @Override
    public String sortKey() {
      return row.key();
    }
  }

  /** A folder, as the key prefix {@code dir/} of the memories under it. */
  record Folder(String keyPrefix) implements ListedItem {
    public Folder {
      requireNonNull(keyPrefix, "keyPrefix is null");
    }

    @Override
    public String sortKey() {
      return keyPrefix;
    }
  }
}
