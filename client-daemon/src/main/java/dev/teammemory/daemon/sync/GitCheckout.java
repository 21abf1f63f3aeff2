package dev.teammemory.daemon.sync;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What {@code tmem add} learns from git: the checkout's root and its GitHub repository. */
public final class GitCheckout {

  private GitCheckout() {}

  /** The {@code owner/name} of a github.com remote URL; see {@link #repoOf(String, String)}. */
  public static Optional<String> repoOf(String remoteUrl) {
    return repoOf(remoteUrl, "github.com");
  }

  /**
   * The {@code owner/name} of a remote URL on {@code githubHost} (github.com, or a GitHub
   * Enterprise host): https ({@code https://host/o/r}), ssh ({@code ssh://git@host/o/r}) or
   * scp-like ({@code git@host:o/r}), with or without {@code .git}, a port and trailing slashes;
   * empty for anything else.
   */
  public static Optional<String> repoOf(String remoteUrl, String githubHost) {
    String url = remoteUrl.strip();
    while (url.endsWith("/")) {
      url = url.substring(0, url.length() - 1);
    }
    String host = Pattern.quote(githubHost.strip());
    Pattern withScheme =
        Pattern.compile(
            "(?i)(?:https?|git|ssh|git\\+ssh|ssh\\+git)://(?:[^@/]+@)?"
                + host
                + "(?::\\d+)?/([^/]+)/([^/]+?)(?:\\.git)?");
    Pattern scpLike = Pattern.compile("(?i)(?:[^@/]+@)?" + host + ":/?([^/]+)/([^/]+?)(?:\\.git)?");
    for (Pattern pattern : List.of(withScheme, scpLike)) {
      Matcher matcher = pattern.matcher(url);
      if (matcher.matches()) {
        String slug = matcher.group(1) + "/" + matcher.group(2);
        return RepoSlug.isValid(slug) ? Optional.of(slug) : Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * The remote URL fit for a message: an https remote may carry a user and a token ({@code
   * https://user:token@host/o/r}), which must not be shown.
   */
  public static String withoutUserInfo(String remoteUrl) {
    return remoteUrl.replaceFirst("^([A-Za-z][A-Za-z0-9+.-]*://)[^/@]*@", "$1");
  }

  /** The root of the git checkout containing {@code directory}, if it is in one. */
  public static Optional<Path> root(Path directory) {
    return git(directory, "rev-parse", "--show-toplevel").map(Path::of);
  }

  /** {@code git remote get-url origin} in {@code directory}, if there is such a remote. */
  public static Optional<String> originUrl(Path directory) {
    return git(directory, "remote", "get-url", "origin");
  }

  private static Optional<String> git(Path directory, String... arguments) {
    List<String> command = new ArrayList<>(List.of("git", "-C", directory.toString()));
    command.addAll(List.of(arguments));
    try {
      Process process =
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      process.getOutputStream().close();
      String output;
      try (InputStream in = process.getInputStream()) {
        output = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
      }
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return Optional.empty();
      }
      return process.exitValue() == 0 && !output.isEmpty() ? Optional.of(output) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
