-- session-store schema, version 3 (PostgreSQL 12 or later): retention.
--
-- Placeholders as in V1__schema.sql. Teams that run migrations themselves apply this file after version 2, then
-- record it: INSERT INTO ${schema}.${prefix}schema_version (version, description) VALUES (3, 'retention').
--
-- cut_seq: the seq through which retention cut the head of the session's log (whole chapters below its latest
-- summary); 0 when nothing was cut. The log holds seqs cut_seq + 1 .. last_seq; a fork takes its parent's cut_seq
-- and can only be made at a seq after it. Adding a column with a constant default rewrites no rows.
ALTER TABLE ${schema}.${prefix}sessions ADD COLUMN IF NOT EXISTS cut_seq bigint NOT NULL DEFAULT 0;

-- What the idle-session rule scans: sessions by their last write.
CREATE INDEX IF NOT EXISTS ${prefix}sessions_updated_idx ON ${schema}.${prefix}sessions (updated_at);
