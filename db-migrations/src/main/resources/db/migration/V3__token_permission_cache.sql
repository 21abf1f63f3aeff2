-- Team Memory schema, version 3: GitHub permissions cached per token, and an index for listings
-- that start from the repositories a caller can see.
--
-- Additive only (see V2): a replica of the previous release keeps using repo_access and
-- repo_listing, keyed by user, until it is replaced; this release leaves them alone but for
-- deleting their expired rows.

-- A permission GitHub reported for one token (its hex SHA-256, never the token) on one repository.
-- Keyed by token, not user: a user's narrower token (a fine-grained one, or one an organisation's
-- SSO has not authorised) must never borrow what a broader token of the same user was told.
CREATE TABLE token_repo_access (
    token_digest    TEXT         NOT NULL,
    slug_key        TEXT         NOT NULL,
    permission      TEXT         NOT NULL,          -- NONE | READ | WRITE
    checked_at      TIMESTAMPTZ  NOT NULL,
    expires_at      TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (token_digest, slug_key)
);
CREATE INDEX token_repo_access_expires_idx ON token_repo_access (expires_at);

-- When GitHub's list of a token's repositories (GET /user/repos) was last fetched whole.
CREATE TABLE token_repo_listing (
    token_digest    TEXT         PRIMARY KEY,
    checked_at      TIMESTAMPTZ  NOT NULL,
    expires_at      TIMESTAMPTZ  NOT NULL
);
CREATE INDEX token_repo_listing_expires_idx ON token_repo_listing (expires_at);

-- A listing of stores for a caller granted every repository of an owner (owner/* in the static
-- tokens file) finds that owner's repositories here rather than reading every repository.
CREATE INDEX repository_owner_key_idx ON repository (split_part(slug_key, '/', 1), id);
