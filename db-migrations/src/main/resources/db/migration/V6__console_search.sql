-- Console search (issue 26) from a stored document: each memory's words are computed once, when it
-- is written, instead of for every memory of the repository at every search, and ranked from the
-- same stored column. Built-in PostgreSQL only (no extension a managed database might refuse).
--
-- Additive for the previous release: it never names the new column (PostgreSQL fills a generated
-- column on its inserts and updates too). Its own search query never used the dropped index (its
-- OR with a path ILIKE made PostgreSQL compute the expression per row), so it loses nothing.

-- The words of a memory, weighted so a hit where people name things ranks first: the path (as
-- words, whole, and its file name) and the frontmatter's name weigh A, its description B, the
-- text D. The frontmatter is the lines between a leading "---" line and the next "---" line, as
-- the console's Frontmatter reads it; a memory without one has only path and text. Adding the
-- column computes it for every existing row (one rewrite of memory_entry, in this migration).
ALTER TABLE memory_entry ADD COLUMN search_document tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig,
        translate(entry_key, '/._-', '    ') || ' ' || entry_key || ' '
            || regexp_replace(entry_key, '^.*/', '')), 'A')
    || setweight(to_tsvector('english'::regconfig, coalesce(substring(
        CASE WHEN content ~ '^---\r?\n' THEN split_part(content, E'\n---', 1) ELSE '' END
        FROM '(?n)^name:[ \t]*(.*)$'), '')), 'A')
    || setweight(to_tsvector('english'::regconfig, coalesce(substring(
        CASE WHEN content ~ '^---\r?\n' THEN split_part(content, E'\n---', 1) ELSE '' END
        FROM '(?n)^description:[ \t]*(.*)$'), '')), 'B')
    || setweight(to_tsvector('english'::regconfig, content), 'D')) STORED;
CREATE INDEX memory_entry_search_document_idx ON memory_entry USING GIN (search_document);

-- The path branch of a search: paths starting with what was typed, case-insensitively, within one
-- repository (a range over lower(path) in byte order, which text_pattern_ops indexes).
CREATE INDEX memory_entry_path_prefix_idx
    ON memory_entry (repository_id, lower(entry_key) text_pattern_ops);

-- V5's expression index: the stored column replaces it.
DROP INDEX memory_entry_search_idx;
