-- The console (issue 26): browser sessions, GitHub device-flow sign-ins and the single-use sign-in
-- codes `tmem console` mints, all in PostgreSQL so that any replica serves them; and full-text
-- search over the team memory. Additive: older servers never read these tables.

-- A signed-in browser. The cookie holds a random id; only its SHA-256 is kept, so a copy of this
-- table opens no session. The credential the session acts with (a token, whose permissions are
-- checked as for the APIs) is AES-GCM encrypted with TMEM_CONSOLE_KEY and erased at sign-out.
CREATE TABLE console_session (
    id_hash         TEXT         PRIMARY KEY,       -- sha256 hex of the cookie's session id
    user_name       TEXT         NOT NULL,          -- who signed in, for display and the audit log
    credential      BYTEA        NOT NULL,          -- nonce || AES-GCM(token)
    csrf_token      TEXT         NOT NULL,          -- what every form of this session carries
    created_at      TIMESTAMPTZ  NOT NULL,
    expires_at      TIMESTAMPTZ  NOT NULL
);
CREATE INDEX console_session_expires_idx ON console_session (expires_at);

-- A GitHub device-flow sign-in in progress: the browser polls it by its random id (hashed here).
CREATE TABLE console_device_sign_in (
    id_hash         TEXT         PRIMARY KEY,
    device_code     BYTEA        NOT NULL,          -- encrypted like a session's credential
    user_code       TEXT         NOT NULL,
    verification_uri TEXT        NOT NULL,
    poll_seconds    INTEGER      NOT NULL,
    next_poll_at    TIMESTAMPTZ  NOT NULL,
    expires_at      TIMESTAMPTZ  NOT NULL
);
CREATE INDEX console_device_sign_in_expires_idx ON console_device_sign_in (expires_at);

-- A code `tmem console` asked for: exchanged once (the row is deleted by the exchange) for a
-- session with the credential it holds, within minutes.
CREATE TABLE console_sign_in_code (
    code_hash       TEXT         PRIMARY KEY,
    user_name       TEXT         NOT NULL,
    credential      BYTEA        NOT NULL,
    expires_at      TIMESTAMPTZ  NOT NULL
);
CREATE INDEX console_sign_in_code_expires_idx ON console_sign_in_code (expires_at);

-- Full-text search over path and content with PostgreSQL's built-in search (no extension): the
-- console's query repeats this exact expression, so the planner uses the index.
CREATE INDEX memory_entry_search_idx ON memory_entry USING GIN (
    to_tsvector('english'::regconfig, translate(entry_key, '/._-', '    ') || ' ' || content));

-- The activity page: a repository's kept versions, newest first, a page at a time.
CREATE INDEX memory_entry_version_activity_idx ON memory_entry_version (repository_id, version DESC, id DESC);
