package dev.teammemory.server.github;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Starts the {@link FakeGitHub} before the server and points the server's GitHub API and web URLs
 * (the device flow's) at it. The tests reach the running fake through {@link #gitHub()}.
 */
public final class FakeGitHubResource implements QuarkusTestResourceLifecycleManager {

  private static volatile FakeGitHub running;

  /** The fake GitHub the running server talks to. */
  public static FakeGitHub gitHub() {
    FakeGitHub gitHub = running;
    if (gitHub == null) {
      throw new IllegalStateException("the fake GitHub is not running");
    }
    return gitHub;
  }

  @Override
  public Map<String, String> start() {
    running = new FakeGitHub();
    return Map.of(
        "tmem.auth.github.api-url", running.apiUrl(), "tmem.auth.github.url", running.webUrl());
  }

  @Override
  public void stop() {
    if (running != null) {
      running.close();
      running = null;
    }
  }
}
