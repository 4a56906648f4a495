-- session-store schema, version 1 (PostgreSQL 12 or later).
--
-- ${schema} is replaced by the quoted schema name and ${prefix} by the table prefix, both validated by the builder
-- ([a-z_][a-z0-9_]*). Teams that run migrations themselves apply this file with those two placeholders replaced,
-- then record it: INSERT INTO ${schema}.${prefix}schema_version (version, description) VALUES (1, 'schema').
--
-- Every id, name and key column is COLLATE "C": ids are byte-exact, and keyset paging must order them the same way
-- on every database whatever its default collation.
--
-- Everything a session owns is keyed by its session id first (events, runs, tool calls, summaries, checkpoints,
-- model calls): run and tool-call ids are unique within their session only, and a backend can partition by session.
--
-- Every JSON document column (settings, payload, usage, error, arguments, result, content, context) is json, not
-- jsonb: json keeps the text exactly as written (key order, whitespace, number notation, escapes), so a document
-- reads back with the bytes the caller wrote, as from every other adapter (SPEC guarantee 18); jsonb would reorder
-- keys and reprint numbers. The store validates every document before writing it (Json); PostgreSQL checks the
-- syntax again. Session metadata, a string map that is merged and filtered by containment (@>) and whose text is
-- never returned as written, stays jsonb for its GIN index.

-- One row per session. last_seq is the head of the session's log: appends lock this row and move it forward, so
-- seqs are gapless under any number of writers. fillfactor leaves room for HOT updates of the head.
CREATE TABLE ${schema}.${prefix}sessions (
  id              text COLLATE "C" NOT NULL,
  name            text COLLATE "C",
  tenant          text COLLATE "C",
  agent_id        text COLLATE "C",
  status          text COLLATE "C" NOT NULL,
  settings        json NOT NULL,
  metadata        jsonb NOT NULL,
  fork_parent_id  text COLLATE "C",
  fork_seq        bigint,
  last_seq        bigint NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  CONSTRAINT ${prefix}sessions_pkey PRIMARY KEY (id),
  CONSTRAINT ${prefix}sessions_name_key UNIQUE (name),
  CONSTRAINT ${prefix}sessions_fork_check CHECK ((fork_parent_id IS NULL) = (fork_seq IS NULL))
) WITH (fillfactor = 80);

-- Listing pages by (created_at, id), optionally filtered by tenant, status or agent.
CREATE INDEX ${prefix}sessions_listing_idx ON ${schema}.${prefix}sessions (created_at, id);
CREATE INDEX ${prefix}sessions_tenant_idx ON ${schema}.${prefix}sessions (tenant, created_at, id)
  WHERE tenant IS NOT NULL;
CREATE INDEX ${prefix}sessions_status_idx ON ${schema}.${prefix}sessions (status, created_at, id);
CREATE INDEX ${prefix}sessions_agent_idx ON ${schema}.${prefix}sessions (agent_id, created_at, id)
  WHERE agent_id IS NOT NULL;
-- Metadata filters (metadata @> '{"k":"v"}').
CREATE INDEX ${prefix}sessions_metadata_idx ON ${schema}.${prefix}sessions USING gin (metadata jsonb_path_ops);
-- Sessions to resume eagerly. json ->> text is immutable, so it may appear in an index predicate; each row's settings
-- are parsed once when the row is written, and a listing scans only the index.
CREATE INDEX ${prefix}sessions_resumable_idx ON ${schema}.${prefix}sessions (id)
  WHERE settings ->> 'resume_policy' = 'eager';

-- The append-only log. seq is assigned under the session's head lock, never by a sequence.
CREATE TABLE ${schema}.${prefix}events (
  session_id  text COLLATE "C" NOT NULL,
  seq         bigint NOT NULL,
  id          text COLLATE "C" NOT NULL,
  type        text COLLATE "C" NOT NULL,
  run_id      text COLLATE "C",
  agent_id    text COLLATE "C",
  parent_id   text COLLATE "C",
  payload     json NOT NULL,
  ts          timestamptz NOT NULL,
  CONSTRAINT ${prefix}events_pkey PRIMARY KEY (session_id, seq),
  CONSTRAINT ${prefix}events_id_key UNIQUE (session_id, id),
  CONSTRAINT ${prefix}events_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${schema}.${prefix}sessions (id) ON DELETE CASCADE
);

-- Reads filtered by run, type or agent, in seq order; tail reads use the primary key.
CREATE INDEX ${prefix}events_run_idx ON ${schema}.${prefix}events (session_id, run_id, seq)
  WHERE run_id IS NOT NULL;
CREATE INDEX ${prefix}events_type_idx ON ${schema}.${prefix}events (session_id, type, seq);
CREATE INDEX ${prefix}events_agent_idx ON ${schema}.${prefix}events (session_id, agent_id, seq)
  WHERE agent_id IS NOT NULL;

CREATE TABLE ${schema}.${prefix}runs (
  id          text COLLATE "C" NOT NULL,
  session_id  text COLLATE "C" NOT NULL,
  status      text COLLATE "C" NOT NULL,
  usage       json NOT NULL,
  error       json,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL,
  -- Database time of the last write: orders runs updated at the same store-clock instant.
  written_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT ${prefix}runs_pkey PRIMARY KEY (session_id, id),
  CONSTRAINT ${prefix}runs_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${schema}.${prefix}sessions (id) ON DELETE CASCADE
);

CREATE INDEX ${prefix}runs_session_idx ON ${schema}.${prefix}runs (session_id, created_at, id);
-- The active run: the most recently updated running or waiting one.
CREATE INDEX ${prefix}runs_active_idx ON ${schema}.${prefix}runs (session_id, updated_at, written_at)
  WHERE status IN ('running', 'waiting');

CREATE TABLE ${schema}.${prefix}tool_calls (
  id                text COLLATE "C" NOT NULL,
  session_id        text COLLATE "C" NOT NULL,
  run_id            text COLLATE "C",
  -- The event that requested the call (the tool_use event), by id within the session.
  request_event_id  text COLLATE "C",
  tool_name         text COLLATE "C" NOT NULL,
  arguments         json NOT NULL,
  status            text COLLATE "C" NOT NULL,
  result            json,
  deadline          timestamptz,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  CONSTRAINT ${prefix}tool_calls_pkey PRIMARY KEY (session_id, id),
  CONSTRAINT ${prefix}tool_calls_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${schema}.${prefix}sessions (id) ON DELETE CASCADE,
  CONSTRAINT ${prefix}tool_calls_deadline_check CHECK (deadline IS NULL OR status = 'pending')
);

-- Pending calls of a session, oldest first.
CREATE INDEX ${prefix}tool_calls_pending_idx ON ${schema}.${prefix}tool_calls (session_id, created_at, id)
  WHERE status = 'pending';
-- What the deadline sweeper scans: pending calls with a deadline, earliest first.
CREATE INDEX ${prefix}tool_calls_due_idx ON ${schema}.${prefix}tool_calls (deadline)
  WHERE status = 'pending' AND deadline IS NOT NULL;

CREATE TABLE ${schema}.${prefix}summaries (
  session_id  text COLLATE "C" NOT NULL,
  to_seq      bigint NOT NULL,
  from_seq    bigint NOT NULL,
  content     json NOT NULL,
  version     integer NOT NULL,
  created_at  timestamptz NOT NULL,
  CONSTRAINT ${prefix}summaries_pkey PRIMARY KEY (session_id, to_seq),
  CONSTRAINT ${prefix}summaries_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${schema}.${prefix}sessions (id) ON DELETE CASCADE
);

CREATE TABLE ${schema}.${prefix}session_checkpoints (
  session_id  text COLLATE "C" NOT NULL,
  name        text COLLATE "C" NOT NULL,
  data        bytea NOT NULL,
  updated_at  timestamptz NOT NULL,
  CONSTRAINT ${prefix}session_checkpoints_pkey PRIMARY KEY (session_id, name),
  CONSTRAINT ${prefix}session_checkpoints_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${schema}.${prefix}sessions (id) ON DELETE CASCADE
);

CREATE TABLE ${schema}.${prefix}global_checkpoints (
  name        text COLLATE "C" NOT NULL,
  data        bytea NOT NULL,
  updated_at  timestamptz NOT NULL,
  CONSTRAINT ${prefix}global_checkpoints_pkey PRIMARY KEY (name)
);

CREATE TABLE ${schema}.${prefix}model_calls (
  session_id   text COLLATE "C" NOT NULL,
  turn         bigint NOT NULL,
  model        text COLLATE "C" NOT NULL,
  context      json NOT NULL,
  usage        json NOT NULL,
  recorded_at  timestamptz NOT NULL,
  CONSTRAINT ${prefix}model_calls_pkey PRIMARY KEY (session_id, turn),
  CONSTRAINT ${prefix}model_calls_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${schema}.${prefix}sessions (id) ON DELETE CASCADE
);

-- Removal by age across sessions.
CREATE INDEX ${prefix}model_calls_recorded_idx ON ${schema}.${prefix}model_calls (recorded_at);
