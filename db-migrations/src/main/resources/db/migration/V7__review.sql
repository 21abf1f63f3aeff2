-- Team Memory schema, version 7: review per repository (issue 27). A repository may require that a
-- change reaches teammates only once a reviewer approved it. Additive only (see V2): a replica of
-- the previous release ignores these tables and columns, and a repository without a setting row
-- has review off, so every answer stays as before.

-- The repository's review setting, keyed like the permission caches by the lower-cased slug, so
-- that it can be set before the repository's first write (which creates its row).
CREATE TABLE review_setting (
    slug_key        TEXT         PRIMARY KEY,
    review          TEXT         NOT NULL CHECK (review IN ('off', 'required')),
    updated_at      TIMESTAMPTZ  NOT NULL,
    updated_by      TEXT         NOT NULL
);

-- The approved-version pointer: the kept version (memory_entry_version.version) of the key that
-- teammates see while review is required; NULL for a key never approved. Switching review on sets
-- it to every key's current version ("everything existing counts as approved").
ALTER TABLE memory_entry ADD COLUMN approved_version BIGINT;

-- A change waiting for review, and its decision: one row a write of a key made while review was
-- required. The content itself is the kept version (memory_entry_version) the write stamped; this
-- row says what it did, over which approved version, and what became of it.
CREATE TABLE review_change (
    id              TEXT         PRIMARY KEY,       -- rev_<random>
    repository_id   BIGINT       NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    entry_key       TEXT         NOT NULL,
    memory_id       TEXT,
    author          TEXT         NOT NULL,
    operation       TEXT         NOT NULL CHECK (operation IN ('content', 'delete', 'rename')),
    renamed_from    TEXT,                           -- a rename's old key
    version         BIGINT       NOT NULL,          -- the repository version the write stamped
    base_version    BIGINT,                         -- the key's approved version it was made over
    status          TEXT         NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'approved', 'rejected')),
    reviewer        TEXT,
    review_comment  TEXT,
    created_at      TIMESTAMPTZ  NOT NULL,
    decided_at      TIMESTAMPTZ
);
CREATE INDEX review_change_queue_idx ON review_change (repository_id, status, created_at, id);
CREATE INDEX review_change_key_idx ON review_change (repository_id, entry_key, status);

-- What reviewers and admins did, for the audit page: decisions, restores, redactions and setting
-- changes, by whom and when. Keyed by slug like the setting, so a setting changed before the first
-- write is audited too.
CREATE TABLE review_audit (
    id              BIGSERIAL    PRIMARY KEY,
    slug_key        TEXT         NOT NULL,
    action          TEXT         NOT NULL,          -- approved | rejected | restored | redacted
                                                    -- | review_on | review_off | published
    actor           TEXT         NOT NULL,
    review_id       TEXT,
    entry_key       TEXT,
    detail          TEXT         NOT NULL DEFAULT '',
    created_at      TIMESTAMPTZ  NOT NULL
);
CREATE INDEX review_audit_page_idx ON review_audit (slug_key, id DESC);
