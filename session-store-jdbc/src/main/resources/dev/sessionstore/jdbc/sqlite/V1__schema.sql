-- session-store schema, version 1 (SQLite 3.38 or later), the twin of postgresql/V1__schema.sql table by table.
--
-- ${schema} is replaced by "main" (SQLite keeps the tables in the database file itself) and ${prefix} by the table
-- prefix, validated by the builder ([a-z_][a-z0-9_]*). Teams that run migrations themselves apply this file with
-- those two placeholders replaced, then record it:
-- INSERT INTO ${schema}.${prefix}schema_version (version, description) VALUES (1, 'schema').
--
-- Tables are STRICT: a value of the wrong type is refused, as PostgreSQL refuses it. Text compares bytewise (SQLite's
-- BINARY collation), as COLLATE "C" does on PostgreSQL: ids are byte-exact and keyset paging orders them alike.
-- Timestamps are INTEGER microseconds since 1970-01-01 UTC.
--
-- Everything a session owns is keyed by its session id first (events, runs, tool calls, summaries, checkpoints,
-- model calls): run and tool-call ids are unique within their session only.
--
-- Every JSON document column (settings, payload, usage, error, arguments, result, content, context) is TEXT holding
-- the document exactly as written (SPEC guarantee 18); the store validates every document before writing it (Json).
-- Session metadata, a string map that is merged and filtered by containment, is the JSON text of the map, read with
-- the JSON1 functions; SQLite has no index for containment, so a metadata filter scans the sessions it is combined
-- with.

-- One row per session. last_seq is the last seq of the session's log: appends hold the database's write lock and
-- move it forward, so seqs are gapless under any number of writers. shared_seq is 0 unless the session is a fork:
-- then its seqs 1..shared_seq are read through its segments (below).
CREATE TABLE ${schema}.${prefix}sessions (
  id              TEXT NOT NULL,
  name            TEXT,
  tenant          TEXT,
  agent_id        TEXT,
  status          TEXT NOT NULL,
  settings        TEXT NOT NULL,
  metadata        TEXT NOT NULL,
  fork_parent_id  TEXT,
  fork_seq        INTEGER,
  last_seq        INTEGER NOT NULL DEFAULT 0,
  shared_seq      INTEGER NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  CONSTRAINT ${prefix}sessions_pkey PRIMARY KEY (id),
  CONSTRAINT ${prefix}sessions_name_key UNIQUE (name),
  CONSTRAINT ${prefix}sessions_fork_check CHECK ((fork_parent_id IS NULL) = (fork_seq IS NULL))
) STRICT;

-- Listing pages by (created_at, id), optionally filtered by tenant, status or agent.
CREATE INDEX ${schema}.${prefix}sessions_listing_idx ON ${prefix}sessions (created_at, id);
CREATE INDEX ${schema}.${prefix}sessions_tenant_idx ON ${prefix}sessions (tenant, created_at, id)
  WHERE tenant IS NOT NULL;
CREATE INDEX ${schema}.${prefix}sessions_status_idx ON ${prefix}sessions (status, created_at, id);
CREATE INDEX ${schema}.${prefix}sessions_agent_idx ON ${prefix}sessions (agent_id, created_at, id)
  WHERE agent_id IS NOT NULL;
-- Sessions to resume eagerly (PostgreSQL's partial index of the same predicate).
CREATE INDEX ${schema}.${prefix}sessions_resumable_idx ON ${prefix}sessions (id)
  WHERE settings ->> 'resume_policy' = 'eager';

-- The append-only log. seq is assigned under the write lock from the session's last_seq, never by a sequence. No
-- foreign key to the sessions table: every write of events holds the write lock after creating the session's row,
-- and deleting a session deletes its events in the same transaction.
CREATE TABLE ${schema}.${prefix}events (
  session_id  TEXT NOT NULL,
  seq         INTEGER NOT NULL,
  id          TEXT NOT NULL,
  type        TEXT NOT NULL,
  run_id      TEXT,
  agent_id    TEXT,
  parent_id   TEXT,
  payload     TEXT NOT NULL,
  ts          INTEGER NOT NULL,
  CONSTRAINT ${prefix}events_pkey PRIMARY KEY (session_id, seq),
  CONSTRAINT ${prefix}events_id_key UNIQUE (session_id, id)
) STRICT;

-- Reads filtered by run or agent (revival and chapters narrowed to one agent), in seq order.
CREATE INDEX ${schema}.${prefix}events_run_idx ON ${prefix}events (session_id, run_id, seq)
  WHERE run_id IS NOT NULL;
CREATE INDEX ${schema}.${prefix}events_agent_idx ON ${prefix}events (session_id, agent_id, seq)
  WHERE agent_id IS NOT NULL;

-- How a fork shares events instead of copying them, as on PostgreSQL (see postgresql/V1__schema.sql): a session's
-- log is its own rows and, for seqs 1..shared_seq, the rows its segments name (seqs from_seq..to_seq of source_id's
-- rows). Before a session's events are deleted, the rows its dependents' segments name are copied into each
-- dependent and those segments pointed at the dependent itself, in the same transaction.
CREATE TABLE ${schema}.${prefix}segments (
  session_id  TEXT NOT NULL,
  from_seq    INTEGER NOT NULL,
  to_seq      INTEGER NOT NULL,
  source_id   TEXT NOT NULL,
  CONSTRAINT ${prefix}segments_pkey PRIMARY KEY (session_id, from_seq),
  CONSTRAINT ${prefix}segments_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${prefix}sessions (id) ON DELETE CASCADE,
  CONSTRAINT ${prefix}segments_range_check CHECK (from_seq BETWEEN 1 AND to_seq)
) STRICT;

-- The dependents of a session about to lose events: segments by source, from the cut on.
CREATE INDEX ${schema}.${prefix}segments_source_idx ON ${prefix}segments (source_id, to_seq);

CREATE TABLE ${schema}.${prefix}runs (
  id          TEXT NOT NULL,
  session_id  TEXT NOT NULL,
  status      TEXT NOT NULL,
  usage       TEXT NOT NULL,
  error       TEXT,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  -- The write order of the last write (one more than the greatest so far, under the write lock): orders runs
  -- updated at the same store-clock instant.
  written_at  INTEGER NOT NULL,
  CONSTRAINT ${prefix}runs_pkey PRIMARY KEY (session_id, id),
  CONSTRAINT ${prefix}runs_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${prefix}sessions (id) ON DELETE CASCADE
) STRICT;

CREATE INDEX ${schema}.${prefix}runs_session_idx ON ${prefix}runs (session_id, created_at, id);
-- The active run: the most recently updated running or waiting one.
CREATE INDEX ${schema}.${prefix}runs_active_idx ON ${prefix}runs (session_id, updated_at, written_at)
  WHERE status IN ('running', 'waiting');
-- The greatest write order, read by every write of a run (PostgreSQL reads its clock instead).
CREATE INDEX ${schema}.${prefix}runs_written_idx ON ${prefix}runs (written_at);

CREATE TABLE ${schema}.${prefix}tool_calls (
  id                TEXT NOT NULL,
  session_id        TEXT NOT NULL,
  run_id            TEXT,
  -- The event that requested the call (the tool_use event), by id within the session.
  request_event_id  TEXT,
  tool_name         TEXT NOT NULL,
  arguments         TEXT NOT NULL,
  status            TEXT NOT NULL,
  result            TEXT,
  deadline          INTEGER,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  CONSTRAINT ${prefix}tool_calls_pkey PRIMARY KEY (session_id, id),
  CONSTRAINT ${prefix}tool_calls_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${prefix}sessions (id) ON DELETE CASCADE,
  CONSTRAINT ${prefix}tool_calls_deadline_check CHECK (deadline IS NULL OR status = 'pending')
) STRICT;

-- Pending calls of a session, oldest first.
CREATE INDEX ${schema}.${prefix}tool_calls_pending_idx ON ${prefix}tool_calls (session_id, created_at, id)
  WHERE status = 'pending';
-- What the deadline sweeper scans: pending calls with a deadline, earliest first.
CREATE INDEX ${schema}.${prefix}tool_calls_due_idx ON ${prefix}tool_calls (deadline)
  WHERE status = 'pending' AND deadline IS NOT NULL;

CREATE TABLE ${schema}.${prefix}summaries (
  session_id  TEXT NOT NULL,
  to_seq      INTEGER NOT NULL,
  from_seq    INTEGER NOT NULL,
  content     TEXT NOT NULL,
  version     INTEGER NOT NULL,
  created_at  INTEGER NOT NULL,
  CONSTRAINT ${prefix}summaries_pkey PRIMARY KEY (session_id, to_seq),
  CONSTRAINT ${prefix}summaries_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${prefix}sessions (id) ON DELETE CASCADE
) STRICT;

CREATE TABLE ${schema}.${prefix}session_checkpoints (
  session_id  TEXT NOT NULL,
  name        TEXT NOT NULL,
  data        BLOB NOT NULL,
  updated_at  INTEGER NOT NULL,
  CONSTRAINT ${prefix}session_checkpoints_pkey PRIMARY KEY (session_id, name),
  CONSTRAINT ${prefix}session_checkpoints_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${prefix}sessions (id) ON DELETE CASCADE
) STRICT;

CREATE TABLE ${schema}.${prefix}global_checkpoints (
  name        TEXT NOT NULL,
  data        BLOB NOT NULL,
  updated_at  INTEGER NOT NULL,
  CONSTRAINT ${prefix}global_checkpoints_pkey PRIMARY KEY (name)
) STRICT;

CREATE TABLE ${schema}.${prefix}model_calls (
  session_id   TEXT NOT NULL,
  turn         INTEGER NOT NULL,
  model        TEXT NOT NULL,
  context      TEXT NOT NULL,
  usage        TEXT NOT NULL,
  recorded_at  INTEGER NOT NULL,
  CONSTRAINT ${prefix}model_calls_pkey PRIMARY KEY (session_id, turn),
  CONSTRAINT ${prefix}model_calls_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${prefix}sessions (id) ON DELETE CASCADE
) STRICT;

-- Removal by age across sessions.
CREATE INDEX ${schema}.${prefix}model_calls_recorded_idx ON ${prefix}model_calls (recorded_at);
