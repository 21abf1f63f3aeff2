package dev.teammemory.daemon.sync;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The files a push hands to its {@link Transport}: each key's content, in key order, and the
 * checksum of that content (hashed once, when the push read the file).
 */
record Outgoing(Map<String, String> contents, Map<String, String> checksums) {

  Outgoing {
    contents = Collections.unmodifiableMap(new TreeMap<>(contents));
    checksums = Map.copyOf(checksums);
  }
}
