-- Team Memory schema, version 2: the Memory Stores API over the same rows (one repository = one
-- store, one entry = one memory, the entry history = the memory's versions).
--
-- Additive only, so that a replica of the previous release keeps working during a rolling
-- upgrade: new columns have defaults (or may stay NULL), nothing is renamed or dropped, and what
-- the previous release writes without knowing the new columns is completed by defaults and by the
-- trigger at the end.

-- The store of each repository. Its id is random (so it tells nothing about the repository) and
-- has a default, so that a repository created by the previous release gets one too.
ALTER TABLE repository
    ADD COLUMN store_id          TEXT         NOT NULL
        DEFAULT ('memstore_' || replace(gen_random_uuid()::text, '-', '')),
    ADD COLUMN store_name        TEXT,                          -- NULL: the slug
    ADD COLUMN store_description TEXT         NOT NULL DEFAULT '',
    ADD COLUMN store_metadata    TEXT         NOT NULL DEFAULT '{}',  -- a JSON object of strings
    ADD COLUMN store_updated_at  TIMESTAMPTZ,                   -- NULL: never changed since created
    ADD COLUMN archived_at       TIMESTAMPTZ;                   -- NULL: not archived
CREATE UNIQUE INDEX repository_store_id_idx ON repository (store_id);

-- The memory id of each entry: kept by a rename, new for a created or revived entry. Defaults
-- cover rows the previous release inserts.
ALTER TABLE memory_entry
    ADD COLUMN memory_id  TEXT        NOT NULL
        DEFAULT ('mem_' || replace(gen_random_uuid()::text, '-', '')),
    ADD COLUMN created_at TIMESTAMPTZ NOT NULL DEFAULT now();
CREATE UNIQUE INDEX memory_entry_memory_id_idx ON memory_entry (memory_id);
-- Store listings walk a repository's keys in UTF-8 byte order.
CREATE INDEX memory_entry_key_bytes_idx ON memory_entry (repository_id, (entry_key COLLATE "C"));

-- An entry's creation is the first kept version of its key, when history still has it.
UPDATE memory_entry e SET created_at = first.at
FROM (SELECT repository_id, entry_key, min(created_at) AS at
      FROM memory_entry_version GROUP BY repository_id, entry_key) first
WHERE first.repository_id = e.repository_id AND first.entry_key = e.entry_key;

-- Each kept version names its memory and what it did; redaction empties a version for good.
ALTER TABLE memory_entry_version
    ADD COLUMN memory_id   TEXT,          -- NULL only for a rename's tombstone of the old path
    ADD COLUMN operation   TEXT,          -- created | modified | deleted | moved
    ADD COLUMN redacted_at TIMESTAMPTZ,
    ADD COLUMN redacted_by TEXT;
CREATE INDEX memory_entry_version_memory_idx
    ON memory_entry_version (repository_id, memory_id, id);

UPDATE memory_entry_version v SET memory_id = e.memory_id
FROM memory_entry e
WHERE e.repository_id = v.repository_id AND e.entry_key = v.entry_key;

UPDATE memory_entry_version v SET operation = CASE
    WHEN v.deleted THEN 'deleted'
    WHEN previous.deleted IS NULL OR previous.deleted THEN 'created'
    ELSE 'modified' END
FROM (SELECT id, lag(deleted) OVER (PARTITION BY repository_id, entry_key ORDER BY version)
          AS deleted
      FROM memory_entry_version) previous
WHERE previous.id = v.id;

-- The previous release inserts versions without a memory id or an operation: take the id from the
-- entry (written in the same transaction) and the operation from the key's previous version.
CREATE FUNCTION memory_entry_version_complete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    previous_deleted BOOLEAN;
BEGIN
    IF NEW.operation IS NULL THEN
        SELECT deleted INTO previous_deleted FROM memory_entry_version
        WHERE repository_id = NEW.repository_id AND entry_key = NEW.entry_key
          AND version < NEW.version
        ORDER BY version DESC LIMIT 1;
        NEW.operation := CASE
            WHEN NEW.deleted THEN 'deleted'
            WHEN previous_deleted IS NULL OR previous_deleted THEN 'created'
            ELSE 'modified' END;
        IF NEW.memory_id IS NULL THEN
            SELECT memory_id INTO NEW.memory_id FROM memory_entry
            WHERE repository_id = NEW.repository_id AND entry_key = NEW.entry_key;
        END IF;
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER memory_entry_version_complete BEFORE INSERT ON memory_entry_version
    FOR EACH ROW EXECUTE FUNCTION memory_entry_version_complete();

-- The stores a GitHub user may read, as GitHub's GET /user/repos listed them: the repositories are
-- cached in repo_access; this row says when the whole list was last fetched.
CREATE TABLE repo_listing (
    user_id         TEXT         PRIMARY KEY,
    checked_at      TIMESTAMPTZ  NOT NULL,
    expires_at      TIMESTAMPTZ  NOT NULL
);
CREATE INDEX repo_listing_expires_idx ON repo_listing (expires_at);
