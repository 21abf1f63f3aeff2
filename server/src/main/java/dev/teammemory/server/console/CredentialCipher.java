package dev.teammemory.server.console;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.jboss.logging.Logger;

/**
 * Encrypts the credential a session acts with (AES-GCM, a fresh 12-byte nonce each time), so that a
 * copy of the database opens no one's GitHub account without {@code TMEM_CONSOLE_KEY}.
 */
@ApplicationScoped
class CredentialCipher {

  private static final Logger LOG = Logger.getLogger(CredentialCipher.class);
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final SecretKeySpec key;
  private final SecureRandom random = new SecureRandom();

  @Inject
  CredentialCipher(ConsoleConfig config) {
    this(config.key());
  }

  CredentialCipher(Optional<String> configuredKey) {
    byte[] bytes;
    if (configuredKey.isPresent() && !configuredKey.get().isBlank()) {
      try {
        bytes = Base64.getDecoder().decode(configuredKey.get().strip());
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException("TMEM_CONSOLE_KEY is not base64");
      }
      if (bytes.length != 32) {
        throw new ConfigurationException(
            "TMEM_CONSOLE_KEY must be 32 bytes in base64 (openssl rand -base64 32), not "
                + bytes.length);
      }
    } else {
      bytes = new byte[32];
      random.nextBytes(bytes);
      LOG.warn(
          "TMEM_CONSOLE_KEY is not set: console sessions end when this process stops and are"
              + " not shared with other replicas");
    }
    this.key = new SecretKeySpec(bytes, "AES");
  }

  byte[] encrypt(String credential) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      byte[] sealed = cipher.doFinal(credential.getBytes(UTF_8));
      return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is not available", e);
    }
  }

  /** The credential, or empty when it was sealed with another key (the key was changed). */
  Optional<String> decrypt(byte[] sealed) {
    if (sealed.length <= NONCE_BYTES) {
      return Optional.empty();
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
      byte[] plain = cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
      return Optional.of(new String(plain, UTF_8));
    } catch (GeneralSecurityException e) {
      return Optional.empty();
    }
  }
}
