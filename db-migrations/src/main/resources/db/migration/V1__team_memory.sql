-- Team Memory schema, version 1. Flyway owns the schema; Hibernate only validates it.

-- One row per GitHub repository that has team memory. A write locks this row (SELECT ... FOR
-- UPDATE), so concurrent writers to one repository serialise here. The row is created by the
-- first write that changes something (INSERT ... ON CONFLICT DO NOTHING, then the lock), so two
-- first writers never collide and a never-written repository has no row.
CREATE TABLE repository (
    id              BIGSERIAL    PRIMARY KEY,
    slug            TEXT         NOT NULL,          -- owner/name as spelled by the first write
    slug_key        TEXT         NOT NULL UNIQUE,   -- lower(slug): GitHub names are case-insensitive
    version         BIGINT       NOT NULL DEFAULT 0,
    checksum        TEXT         NOT NULL,          -- the repository checksum of its live entries
    entry_count     INTEGER      NOT NULL DEFAULT 0,  -- statistics of the live entries, kept by
    total_bytes     BIGINT       NOT NULL DEFAULT 0,  -- every write and repaired by a job
    last_modified   TIMESTAMPTZ  NOT NULL,
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now()
);

-- Hibernate allocates ids in blocks of 50 so that the rows of one PUT are inserted in a batch.
CREATE SEQUENCE memory_entry_id_seq START WITH 1 INCREMENT BY 50;

-- The current content of every key. A deleted key keeps its row as a tombstone (deleted = true,
-- content '', checksum = the checksum of the content it deleted) so that clients learn of the
-- deletion; a later PUT of the key revives it.
CREATE TABLE memory_entry (
    id              BIGINT       PRIMARY KEY DEFAULT nextval('memory_entry_id_seq'),
    repository_id   BIGINT       NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    entry_key       TEXT         NOT NULL,
    content         TEXT         NOT NULL,
    checksum        TEXT         NOT NULL,
    size_bytes      INTEGER      NOT NULL,          -- UTF-8 bytes of content
    version         BIGINT       NOT NULL,          -- the repository version that last wrote it
    deleted         BOOLEAN      NOT NULL DEFAULT FALSE,
    updated_at      TIMESTAMPTZ  NOT NULL,
    updated_by      TEXT         NOT NULL,
    CONSTRAINT memory_entry_key_unique UNIQUE (repository_id, entry_key)
);
ALTER SEQUENCE memory_entry_id_seq OWNED BY memory_entry.id;

CREATE SEQUENCE memory_entry_version_id_seq START WITH 1 INCREMENT BY 50;

-- Every content a key had, the current one included (the newest row of a key is its current
-- state), with who wrote it and when, so that nothing an acknowledged PUT wrote is lost to a later
-- overwrite. Kept within the retention policy: a row is pruned only when it is beyond the newest N
-- of its key AND older than the retention age.
CREATE TABLE memory_entry_version (
    id              BIGINT       PRIMARY KEY DEFAULT nextval('memory_entry_version_id_seq'),
    repository_id   BIGINT       NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    entry_key       TEXT         NOT NULL,
    version         BIGINT       NOT NULL,          -- the repository version that wrote it
    content         TEXT         NOT NULL,          -- '' for a tombstone
    checksum        TEXT         NOT NULL,          -- a tombstone's: of the content it deleted
    deleted         BOOLEAN      NOT NULL DEFAULT FALSE,
    author          TEXT         NOT NULL,
    created_at      TIMESTAMPTZ  NOT NULL,
    CONSTRAINT memory_entry_version_unique UNIQUE (repository_id, entry_key, version)
);
ALTER SEQUENCE memory_entry_version_id_seq OWNED BY memory_entry_version.id;
CREATE INDEX memory_entry_version_created_idx ON memory_entry_version (created_at);

-- Cached permission of one user on one repository, as the identity provider reported it. The
-- static tokens file needs no cache; a provider that asks a remote API (GitHub) does.
CREATE TABLE repo_access (
    user_id         TEXT         NOT NULL,
    slug_key        TEXT         NOT NULL,
    permission      TEXT         NOT NULL,          -- NONE | READ | WRITE
    checked_at      TIMESTAMPTZ  NOT NULL,
    expires_at      TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (user_id, slug_key)
);
CREATE INDEX repo_access_expires_idx ON repo_access (expires_at);
