package dev.teammemory.server.database;

import java.util.Collection;

/**
 * PostgreSQL array literals for a native query's parameter ({@code CAST(? AS text[])}): one
 * parameter however many values, so a statement's text, and its plan, stay the same.
 */
public final class PostgresArrays {

  private PostgresArrays() {}

  /** {@code {"a","b"}}: every value quoted, its backslashes and quotes escaped. */
  public static String textArray(Collection<String> values) {
    StringBuilder literal = new StringBuilder("{");
    for (String value : values) {
      if (literal.length() > 1) {
        literal.append(',');
      }
      literal.append('"').append(value.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
    }
    return literal.append('}').toString();
  }
}
