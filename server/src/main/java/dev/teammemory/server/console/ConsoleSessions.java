package dev.teammemory.server.console;

import static java.util.Objects.requireNonNull;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Sessions, sign-in codes and device-flow sign-ins in PostgreSQL, so that any replica serves any
 * browser. Rows are found by the SHA-256 of their random id; credentials are encrypted; an expired
 * row is never answered (and {@link #expire} removes it).
 */
@ApplicationScoped
class ConsoleSessions {

  private final DataSource dataSource;
  private final CredentialCipher cipher;
  private final ConsoleConfig config;

  @Inject
  ConsoleSessions(DataSource dataSource, CredentialCipher cipher, ConsoleConfig config) {
    this.dataSource = dataSource;
    this.cipher = cipher;
    this.config = config;
  }

  /** A signed-in browser: who, the credential it acts with, its forms' CSRF token. */
  record Session(String idHash, String user, String credential, String csrfToken) {
    Session {
      requireNonNull(idHash, "idHash is null");
      requireNonNull(user, "user is null");
      requireNonNull(credential, "credential is null");
      requireNonNull(csrfToken, "csrfToken is null");
    }

    @Override
    public String toString() {
      return "Session[user=" + user + "]"; // never the credential
    }
  }

  /** A new session for {@code user} acting with {@code credential}; returns the cookie's id. */
  String open(String user, String credential) {
    String id = RandomIds.next();
    Instant now = Instant.now();
    update(
        "INSERT INTO console_session (id_hash, user_name, credential, csrf_token, created_at,"
            + " expires_at) VALUES (?, ?, ?, ?, ?, ?)",
        RandomIds.hash(id),
        user,
        cipher.encrypt(credential),
        RandomIds.next(),
        at(now),
        at(now.plus(config.sessionTtl())));
    return id;
  }

  /** The live session the cookie's {@code id} names. */
  Optional<Session> find(String id) {
    String idHash = RandomIds.hash(id);
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT user_name, credential, csrf_token FROM console_session"
                    + " WHERE id_hash = ? AND expires_at > now()")) {
      statement.setString(1, idHash);
      try (ResultSet row = statement.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        String user = row.getString(1);
        String csrf = row.getString(3);
        return cipher
            .decrypt(row.getBytes(2))
            .map(credential -> new Session(idHash, user, credential, csrf));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read a console session", e);
    }
  }

  /** Ends the session: its row, and so its encrypted credential, is gone. */
  void close(Session session) {
    update("DELETE FROM console_session WHERE id_hash = ?", session.idHash());
  }

  /** A single-use code that opens a session for {@code user} with {@code credential}. */
  String mintCode(String user, String credential) {
    String code = RandomIds.next();
    update(
        "INSERT INTO console_sign_in_code (code_hash, user_name, credential, expires_at)"
            + " VALUES (?, ?, ?, ?)",
        RandomIds.hash(code),
        user,
        cipher.encrypt(credential),
        at(Instant.now().plus(config.codeTtl())));
    return code;
  }

  /** A code exchanged, once (the row goes in the statement that reads it): a new session's id. */
  Optional<String> exchange(String code) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "DELETE FROM console_sign_in_code WHERE code_hash = ?"
                    + " RETURNING user_name, credential, expires_at > now()")) {
      statement.setString(1, RandomIds.hash(code));
      try (ResultSet row = statement.executeQuery()) {
        if (!row.next() || !row.getBoolean(3)) {
          return Optional.empty();
        }
        String user = row.getString(1);
        return cipher.decrypt(row.getBytes(2)).map(credential -> open(user, credential));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not exchange a console sign-in code", e);
    }
  }

  /** A device-flow sign-in waiting for its person at GitHub. */
  record DeviceSignIn(
      String deviceCode, String userCode, String verificationUri, int pollSeconds) {}

  /** Keeps a device-flow sign-in; returns the browser's id for it. */
  String startDeviceSignIn(
      String deviceCode, String userCode, String verificationUri, int pollSeconds, long expiresIn) {
    String id = RandomIds.next();
    Instant now = Instant.now();
    update(
        "INSERT INTO console_device_sign_in (id_hash, device_code, user_code, verification_uri,"
            + " poll_seconds, next_poll_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        RandomIds.hash(id),
        cipher.encrypt(deviceCode),
        userCode,
        verificationUri,
        pollSeconds,
        at(now.plusSeconds(pollSeconds)),
        at(now.plusSeconds(expiresIn)));
    return id;
  }

  /** The device-flow sign-in {@code id} names; empty once expired or finished. */
  Optional<DeviceSignIn> deviceSignIn(String id) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT device_code, user_code, verification_uri, poll_seconds"
                    + " FROM console_device_sign_in WHERE id_hash = ? AND expires_at > now()")) {
      statement.setString(1, RandomIds.hash(id));
      try (ResultSet row = statement.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        String userCode = row.getString(2);
        String uri = row.getString(3);
        int poll = row.getInt(4);
        return cipher
            .decrypt(row.getBytes(1))
            .map(code -> new DeviceSignIn(code, userCode, uri, poll));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read a device sign-in", e);
    }
  }

  /**
   * Whether GitHub may be asked about the sign-in now: once its interval has passed since the last
   * question, whichever replica asked it (the row keeps the time; this claims the turn).
   */
  boolean claimPoll(String id) {
    return update(
            "UPDATE console_device_sign_in"
                + " SET next_poll_at = now() + make_interval(secs => poll_seconds)"
                + " WHERE id_hash = ? AND next_poll_at <= now()",
            RandomIds.hash(id))
        == 1;
  }

  /**
   * Slows a device sign-in's polling down, as GitHub's {@code slow_down} asks: the next poll waits
   * the new interval from now, since one sooner would only be told to slow down again.
   */
  void slowDown(String id, int pollSeconds) {
    update(
        "UPDATE console_device_sign_in SET poll_seconds = ?,"
            + " next_poll_at = now() + make_interval(secs => CAST(? AS integer)) WHERE id_hash = ?",
        pollSeconds,
        pollSeconds,
        RandomIds.hash(id));
  }

  void endDeviceSignIn(String id) {
    update("DELETE FROM console_device_sign_in WHERE id_hash = ?", RandomIds.hash(id));
  }

  /** Removes expired sessions, codes and device sign-ins; returns how many. */
  int expire() {
    return update("DELETE FROM console_session WHERE expires_at <= now()")
        + update("DELETE FROM console_sign_in_code WHERE expires_at <= now()")
        + update("DELETE FROM console_device_sign_in WHERE expires_at <= now()");
  }

  private int update(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      return statement.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("could not write the console's sessions", e);
    }
  }

  private static OffsetDateTime at(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }
}
