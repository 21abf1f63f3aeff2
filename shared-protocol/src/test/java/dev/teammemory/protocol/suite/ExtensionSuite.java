package dev.teammemory.protocol.suite;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The base of the tests of PROTOCOL.md's "Extensions": they run against the shared server only when
 * the suite is told to check extensions, and are skipped (not failed) otherwise.
 */
abstract class ExtensionSuite {

  static ProtocolServer server;

  @BeforeAll
  static void connect() {
    server = ProtocolServer.shared();
  }

  @BeforeEach
  void onlyWhenExtensionsAreChecked() {
    assumeTrue(server.config().extensions(), "extensions are not checked (extensions=false)");
  }
}
