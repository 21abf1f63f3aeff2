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

/** A cached permission of one user on one repository ({@code repo_access}). */
@Entity
@Table(name = "repo_access")
class RepoAccess extends PanacheEntityBase {

  @EmbeddedId public Id id;

  @Enumerated(EnumType.STRING)
  public Permission permission;

  @Column(name = "checked_at")
  public Instant checkedAt;

  @Column(name = "expires_at")
  public Instant expiresAt;

  /** The caller's stable id and the repository's case-insensitive key. */
  @Embeddable
  record Id(@Column(name = "user_id") String userId, @Column(name = "slug_key") String slugKey) {}
}
