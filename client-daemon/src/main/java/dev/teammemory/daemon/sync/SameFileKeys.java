package dev.teammemory.daemon.sync;

import java.text.Normalizer;
import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Keys that are different on the server but the same file on a disk that ignores case (macOS,
 * Windows) or normalises Unicode (NFC and NFD spellings of one name): {@code Case.md} and {@code
 * case.md}, or a file {@code notes} beside {@code notes/x.md}. Decided on the folded keys whatever
 * this disk does, so that every teammate refuses the same key and none writes one file over
 * another.
 */
final class SameFileKeys {

  private SameFileKeys() {}

  /**
   * For each server key that would land on the file or folder of another key, the refusal in words
   * with the rename that fixes it. {@code known} (files here, keys synced) keep their place; among
   * the server's the first in key order does.
   */
  static Map<String, String> clashes(Collection<String> serverKeys, Collection<String> known) {
    Map<String, String> files = new HashMap<>();
    Map<String, String> folders = new HashMap<>();
    for (String key : new TreeSet<>(known)) {
      claim(key, files, folders);
    }
    Map<String, String> clashes = new TreeMap<>();
    for (String key : new TreeSet<>(serverKeys)) {
      if (known.contains(key)) {
        continue;
      }
      Optional<String> other = clash(key, files, folders);
      if (other.isPresent()) {
        clashes.put(
            key,
            "on a disk that ignores case or Unicode form it is the same file or folder as "
                + Display.key(other.get())
                + "; rename one of them where it was written"
                + free(key, files, folders)
                    .map(name -> " (e.g. to " + Display.key(name) + ")")
                    .orElse(""));
      } else {
        claim(key, files, folders);
      }
    }
    return clashes;
  }

  static String fold(String path) {
    return Normalizer.normalize(path, Normalizer.Form.NFC).toLowerCase(Locale.ROOT);
  }

  private static Optional<String> clash(
      String key, Map<String, String> files, Map<String, String> folders) {
    String folded = fold(key);
    String file = files.get(folded);
    if (file != null && !file.equals(key)) {
      return Optional.of(file);
    }
    // Where only the spelling is the same (a file named as another key's folder), the folder's
    // own check refuses it in its words; here only twins that differ in case or Unicode form.
    String folder = folders.get(folded + "/");
    if (folder != null && !folder.startsWith(key + "/")) {
      return Optional.of(folder);
    }
    int slash = key.indexOf('/');
    while (slash > 0) {
      String prefix = key.substring(0, slash);
      String foldedPrefix = fold(prefix);
      String fileThere = files.get(foldedPrefix);
      if (fileThere != null && !fileThere.equals(prefix)) {
        return Optional.of(fileThere);
      }
      String owner = folders.get(foldedPrefix + "/");
      if (owner != null && !owner.startsWith(prefix + "/")) {
        return Optional.of(owner);
      }
      slash = key.indexOf('/', slash + 1);
    }
    return Optional.empty();
  }

  private static void claim(String key, Map<String, String> files, Map<String, String> folders) {
    files.putIfAbsent(fold(key), key);
    int slash = key.indexOf('/');
    while (slash > 0) {
      folders.putIfAbsent(fold(key.substring(0, slash)) + "/", key);
      slash = key.indexOf('/', slash + 1);
    }
  }

  /** The key with {@code -2}, {@code -3}... before its extension, the first that is free. */
  private static Optional<String> free(
      String key, Map<String, String> files, Map<String, String> folders) {
    int slash = key.lastIndexOf('/');
    int dot = key.lastIndexOf('.');
    boolean extension = dot > slash + 1;
    String stem = extension ? key.substring(0, dot) : key;
    String suffix = extension ? key.substring(dot) : "";
    // A clash on a folder of the key is not fixed by another file name: no suggestion then.
    for (int n = 2; n < 100; n++) {
      String candidate = stem + "-" + n + suffix;
      if (clash(candidate, files, folders).isEmpty()) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
