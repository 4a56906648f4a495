-- session-store schema, version 2 (SQLite 3.38 or later): writer fencing, the twin of postgresql/V2__writer_fencing.sql.
--
-- Placeholders as in V1__schema.sql. Teams that run migrations themselves apply this file after version 1, then
-- record it: INSERT INTO ${schema}.${prefix}schema_version (version, description) VALUES (2, 'writer_fencing').
--
-- One row per session id ever claimed: the current claim's fencing token and owner. No foreign key to the sessions
-- table, on purpose: a claim does not create its session, and deleting a session keeps its row, so that the token of
-- the id keeps growing when the id is used again. Claims and fenced steps both write, so they hold the database's
-- write lock for their whole transaction and serialize.
CREATE TABLE IF NOT EXISTS ${schema}.${prefix}writer_claims (
  session_id  TEXT NOT NULL,
  token       INTEGER NOT NULL,
  owner_id    TEXT NOT NULL,
  CONSTRAINT ${prefix}writer_claims_pkey PRIMARY KEY (session_id),
  CONSTRAINT ${prefix}writer_claims_token_check CHECK (token >= 1)
) STRICT;
