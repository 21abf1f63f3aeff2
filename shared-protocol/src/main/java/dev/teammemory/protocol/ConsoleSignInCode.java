package dev.teammemory.protocol;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of {@code POST /api/console/sign-in-code?repo=o/r} (an extension): a single-use,
 * short-lived link into the server's console that signs the browser in as the caller.
 *
 * @param path the link's path and query, to append to the server's URL: {@code
 *     /console/code/<code>?next=…}; it holds a code, never a token
 */
public record ConsoleSignInCode(@JsonProperty(required = true) String path) {

  public ConsoleSignInCode {
    requireNonNull(path, "path is null");
  }
}
