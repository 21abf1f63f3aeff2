package dev.teammemory.server.memory;

/** A projection of {@link MemoryEntry} without its content: what probes and merges need. */
record EntryState(String entryKey, String checksum, int sizeBytes, boolean deleted) {}
