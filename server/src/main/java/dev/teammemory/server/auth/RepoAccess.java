package dev.teammemory.server.auth;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Table;
import java.time.Instant;

/** A cached permission of one token on one repository ({@code token_repo_access}). */
@Entity
@Table(name = "token_repo_access")
class RepoAccess extends PanacheEntityBase {

  @EmbeddedId public Id id;

  @Enumerated(EnumType.STRING)
  public Permission permission;

  @Column(name = "checked_at")
  public Instant checkedAt;

  @Column(name = "expires_at")
  public Instant expiresAt;

  /** The token's SHA-256 ({@link TokenDigest}) and the repository's case-insensitive key. */
  @Embeddable
  record Id(
      @Column(name = "token_digest") String tokenDigest,
      @Column(name = "slug_key") String slugKey) {}
}
