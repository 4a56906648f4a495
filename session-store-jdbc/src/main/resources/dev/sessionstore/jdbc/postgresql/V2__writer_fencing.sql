-- session-store schema, version 2 (PostgreSQL 12 or later): writer fencing.
--
-- Placeholders as in V1__schema.sql. Teams that run migrations themselves apply this file after version 1, then
-- record it: INSERT INTO ${schema}.${prefix}schema_version (version, description) VALUES (2, 'writer_fencing').
--
-- One row per session id ever claimed: the current claim's fencing token and owner. No foreign key to the sessions
-- table, on purpose: a claim does not create its session, and deleting a session keeps its row, so that the token of
-- the id keeps growing when the id is used again and no token issued before the deletion becomes current again.
-- A claim moves token forward with an upsert (which locks the row); a fenced step reads the row FOR SHARE after
-- locking its session's row, in its own transaction, so a claim waits for the steps checked against the previous
-- token to commit, and steps checked after the claim see the new token.
CREATE TABLE IF NOT EXISTS ${schema}.${prefix}writer_claims (
  session_id  text COLLATE "C" NOT NULL,
  token       bigint NOT NULL,
  owner_id    text COLLATE "C" NOT NULL,
  CONSTRAINT ${prefix}writer_claims_pkey PRIMARY KEY (session_id),
  CONSTRAINT ${prefix}writer_claims_token_check CHECK (token >= 1)
);
