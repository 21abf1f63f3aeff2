-- Team Memory schema, version 1. Flyway owns the schema; Hibernate only validates it.

-- One row per GitHub repository that has team memory. A PUT locks this row (SELECT ... FOR
-- UPDATE), so concurrent writers to one repository serialise here.
CREATE TABLE repository (
    id              BIGSERIAL    PRIMARY KEY,
    slug            TEXT         NOT NULL,          -- owner/name as spelled by the first write
    slug_key        TEXT         NOT NULL UNIQUE,   -- lower(slug): GitHub names are case-insensitive
    organization    TEXT         NOT NULL,
    version         BIGINT       NOT NULL DEFAULT 0,
    checksum        TEXT         NOT NULL,
    entry_count     INTEGER      NOT NULL DEFAULT 0,
    total_bytes     BIGINT       NOT NULL DEFAULT 0,
    last_modified   TIMESTAMPTZ  NOT NULL,
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now()
);

-- The current content of every key. A deleted key keeps its row as a tombstone (deleted = true)
-- so clients learn of the deletion; a later PUT of the key revives it.
CREATE TABLE memory_entry (
    id              BIGSERIAL    PRIMARY KEY,
    repository_id   BIGINT       NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    entry_key       TEXT         NOT NULL,
    content         TEXT         NOT NULL,
    checksum        TEXT         NOT NULL,
    size_bytes      INTEGER      NOT NULL,
    version         BIGINT       NOT NULL,          -- the repository version that last wrote it
    deleted         BOOLEAN      NOT NULL DEFAULT FALSE,
    updated_at      TIMESTAMPTZ  NOT NULL,
    updated_by      TEXT         NOT NULL,
    CONSTRAINT memory_entry_key_unique UNIQUE (repository_id, entry_key)
);

-- Every content a key ever had (within the retention policy), with who wrote it and when, so
-- that nothing an acknowledged PUT wrote is lost to a later overwrite.
CREATE TABLE memory_entry_version (
    id              BIGSERIAL    PRIMARY KEY,
    repository_id   BIGINT       NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    entry_key       TEXT         NOT NULL,
    version         BIGINT       NOT NULL,          -- the repository version that wrote it
    content         TEXT         NOT NULL,
    checksum        TEXT         NOT NULL,
    deleted         BOOLEAN      NOT NULL DEFAULT FALSE,
    author          TEXT         NOT NULL,
    created_at      TIMESTAMPTZ  NOT NULL
);
CREATE INDEX memory_entry_version_key_idx
    ON memory_entry_version (repository_id, entry_key, version DESC);
CREATE INDEX memory_entry_version_created_idx ON memory_entry_version (created_at);

-- Cached permission of one user on one repository, as the identity provider reported it.
CREATE TABLE repo_access (
    user_id         TEXT         NOT NULL,
    slug_key        TEXT         NOT NULL,
    permission      TEXT         NOT NULL,          -- none | read | write
    checked_at      TIMESTAMPTZ  NOT NULL,
    expires_at      TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (user_id, slug_key)
);
CREATE INDEX repo_access_expires_idx ON repo_access (expires_at);
