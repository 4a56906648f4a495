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

-- One row per session. last_seq is the last seq of the session's log: appends lock this row and move it forward, so
-- seqs are gapless under any number of writers. shared_seq is 0 unless the session is a fork: then its seqs
-- 1..shared_seq are read through its segments (below). fillfactor leaves room for HOT updates of last_seq.
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
  shared_seq      bigint NOT NULL DEFAULT 0,
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

-- The append-only log. seq is assigned under the lock of the session's row, never by a sequence. No foreign key to
-- the sessions table: every write of events holds the lock of its session's row, which exists (appends create it),
-- and deleting a session deletes its events after its row, so the per-row check would only repeat that guarantee.
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
  CONSTRAINT ${prefix}events_id_key UNIQUE (session_id, id)
);

-- Reads filtered by run or agent (revival and chapters narrowed to one agent), in seq order; tail reads and reads
-- filtered by type use the primary key, filtering a seq range of one session.
CREATE INDEX ${prefix}events_run_idx ON ${schema}.${prefix}events (session_id, run_id, seq)
  WHERE run_id IS NOT NULL;
CREATE INDEX ${prefix}events_agent_idx ON ${schema}.${prefix}events (session_id, agent_id, seq)
  WHERE agent_id IS NOT NULL;

-- How a fork shares events instead of copying them: a session's log is its own rows of the events table (session_id
-- its id) and, for seqs 1..shared_seq, the rows its segments name: seqs from_seq..to_seq of the rows of source_id.
-- Segments tile 1..shared_seq. A fork's segments are its parent's, cut at the fork point, plus the parent's own rows
-- after the parent's shared_seq up to the fork point: a fork of a fork names the original sources directly, so a fork
-- writes O(depth) rows whatever the length of the log. A segment whose source is the session itself names rows that
-- were materialized into it (below); reads skip it, since the session's own rows are read anyway, and its forks take
-- it like any other.
-- The rows a segment names never change while it names them: before a session's events are deleted (truncation,
-- deletion), the rows its dependents' segments name are copied into each dependent as its own and those segments
-- are pointed at the dependent itself, in the same transaction, under the lock of both sessions' rows; a fork holds a
-- share lock on its parent's row and on every source of its segments while it copies their segments.
CREATE TABLE ${schema}.${prefix}segments (
  session_id  text COLLATE "C" NOT NULL,
  from_seq    bigint NOT NULL,
  to_seq      bigint NOT NULL,
  source_id   text COLLATE "C" NOT NULL,
  CONSTRAINT ${prefix}segments_pkey PRIMARY KEY (session_id, from_seq),
  CONSTRAINT ${prefix}segments_session_fkey FOREIGN KEY (session_id)
    REFERENCES ${schema}.${prefix}sessions (id) ON DELETE CASCADE,
  CONSTRAINT ${prefix}segments_range_check CHECK (from_seq BETWEEN 1 AND to_seq)
);

-- The dependents of a session about to lose events: segments by source, from the cut on.
CREATE INDEX ${prefix}segments_source_idx ON ${schema}.${prefix}segments (source_id, to_seq);

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

-- Appends a batch of new events (distinct ids, one array per column, positions from 1) to a session's log in one
-- auto-committed call, the append's one round trip. The session's row is locked by moving its last_seq by the batch
-- size, or created (status active) if unknown; the events get the old last_seq + their position. Each statement of
-- the function reads the rows committed before it starts, so the ones after the lock see every earlier holder's
-- events. Writes the batch whole or nothing; never raises for a stored id:
-- * appended: one row, appended true, last_seq the last seq before the batch;
-- * otherwise (an id is stored, last_seq is not p_expected (NULL: any), or the session is unknown and p_expected is
--   above 0): appended false, one row with last_seq (as locked; 0 for an unknown session) and no event, then one row
--   per stored event among p_ids. The caller decides from those rows: replay, conflict, or the locked path.
CREATE OR REPLACE FUNCTION ${schema}.${prefix}append_events(p_session_id text, p_expected bigint, p_now timestamptz,
    p_ids text[], p_types text[], p_run_ids text[], p_agent_ids text[], p_parent_ids text[], p_payloads json[],
    p_ts timestamptz[])
  RETURNS TABLE (appended boolean, last_seq bigint, session_id text, seq bigint, id text, type text, run_id text,
    agent_id text, parent_id text, payload json, ts timestamptz)
  LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  v_size bigint := cardinality(p_ids);
  v_base bigint;
  v_shared bigint;
  v_inserted bigint;
BEGIN
  LOOP
    UPDATE ${schema}.${prefix}sessions AS s SET last_seq = s.last_seq + v_size
      WHERE s.id = p_session_id AND (p_expected IS NULL OR s.last_seq = p_expected)
      RETURNING s.last_seq - v_size, s.shared_seq INTO v_base, v_shared;
    IF FOUND THEN
      -- A fork: an id of its shared events is stored too (the unique key sees only its own rows).
      EXIT WHEN v_shared = 0 OR NOT EXISTS (SELECT 1 FROM ${schema}.${prefix}segments AS g, unnest(p_ids) AS b(id),
        LATERAL (SELECT 1 FROM ${schema}.${prefix}events AS e WHERE e.session_id = g.source_id AND e.id = b.id
          AND e.seq BETWEEN g.from_seq AND g.to_seq LIMIT 1) AS e
        WHERE g.session_id = p_session_id AND g.source_id <> p_session_id);
      UPDATE ${schema}.${prefix}sessions AS s SET last_seq = v_base WHERE s.id = p_session_id;
      RETURN QUERY SELECT * FROM ${schema}.${prefix}stored_events(p_session_id, v_base, p_ids);
      RETURN;
    END IF;
    SELECT s.last_seq INTO v_base FROM ${schema}.${prefix}sessions AS s WHERE s.id = p_session_id
      FOR NO KEY UPDATE;
    IF FOUND OR coalesce(p_expected, 0) <> 0 THEN
      RETURN QUERY SELECT * FROM ${schema}.${prefix}stored_events(p_session_id, coalesce(v_base, 0), p_ids);
      RETURN;
    END IF;
    INSERT INTO ${schema}.${prefix}sessions AS s (id, status, settings, metadata, last_seq, created_at, updated_at)
      VALUES (p_session_id, 'active', '{}', '{}', v_size, p_now, p_now)
      ON CONFLICT (id) DO NOTHING;
    IF FOUND THEN
      v_base := 0;
      EXIT;
    END IF;
    -- Created meanwhile by another transaction, now committed: lock it like any existing one.
  END LOOP;
  INSERT INTO ${schema}.${prefix}events AS e (session_id, seq, id, type, run_id, agent_id, parent_id, payload, ts)
    SELECT p_session_id, v_base + b.position, b.id, b.type, b.run_id, b.agent_id, b.parent_id, b.payload, b.ts
    FROM unnest(p_ids, p_types, p_run_ids, p_agent_ids, p_parent_ids, p_payloads, p_ts) WITH ORDINALITY
      AS b(id, type, run_id, agent_id, parent_id, payload, ts, position)
    ON CONFLICT (session_id, id) DO NOTHING;
  GET DIAGNOSTICS v_inserted = ROW_COUNT;
  IF v_inserted = v_size THEN
    RETURN QUERY SELECT true, v_base, NULL::text, NULL::bigint, NULL::text, NULL::text, NULL::text, NULL::text,
      NULL::text, NULL::json, NULL::timestamptz;
    RETURN;
  END IF;
  -- An id is stored: undo this call's writes, still under the lock, and report.
  DELETE FROM ${schema}.${prefix}events AS e WHERE e.session_id = p_session_id AND e.seq > v_base;
  UPDATE ${schema}.${prefix}sessions AS s SET last_seq = v_base WHERE s.id = p_session_id;
  RETURN QUERY SELECT * FROM ${schema}.${prefix}stored_events(p_session_id, v_base, p_ids);
END
$$;

-- What append_events reports when it appended nothing: last_seq, then the session's stored events among p_ids, its
-- own and those it shares (returned with its id). Each id is a probe of the (session_id, id) key (LATERAL, LIMIT 1),
-- so no plan reads a long session's rows because statistics say sessions are short.
CREATE OR REPLACE FUNCTION ${schema}.${prefix}stored_events(p_session_id text, p_last_seq bigint, p_ids text[])
  RETURNS TABLE (appended boolean, last_seq bigint, session_id text, seq bigint, id text, type text, run_id text,
    agent_id text, parent_id text, payload json, ts timestamptz)
  LANGUAGE sql VOLATILE AS $$
  SELECT false, p_last_seq, NULL::text, NULL::bigint, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text,
    NULL::json, NULL::timestamptz
  UNION ALL
  SELECT false, p_last_seq, e.session_id, e.seq, e.id, e.type, e.run_id, e.agent_id, e.parent_id, e.payload, e.ts
  FROM unnest(p_ids) AS b(id),
    LATERAL (SELECT * FROM ${schema}.${prefix}events AS e WHERE e.session_id = p_session_id AND e.id = b.id
      LIMIT 1) AS e
  UNION ALL
  SELECT false, p_last_seq, p_session_id, e.seq, e.id, e.type, e.run_id, e.agent_id, e.parent_id, e.payload, e.ts
  FROM ${schema}.${prefix}segments AS g, unnest(p_ids) AS b(id),
    LATERAL (SELECT * FROM ${schema}.${prefix}events AS e WHERE e.session_id = g.source_id AND e.id = b.id
      AND e.seq BETWEEN g.from_seq AND g.to_seq LIMIT 1) AS e
  WHERE g.session_id = p_session_id AND g.source_id <> p_session_id
$$;
