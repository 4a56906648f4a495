-- session-store schema, version 5 (PostgreSQL 12 or later): search.
--
-- Placeholders as in V1__schema.sql. Teams that run migrations themselves apply this file after version 4, then
-- record it: INSERT INTO ${schema}.${prefix}schema_version (version, description) VALUES (5, 'search'). The events
-- stored before it hold no words (NULL) until a store of this library starts on the schema (migrating it or only
-- checking it): it writes their words (the library makes them, see below) before it serves any call.
--
-- words: the distinct words of the event's payload as the library reads them (dev.sessionstore.spi.SearchText:
-- every JSON string value, split and normalized by dev.sessionstore.SearchWords), as the lexemes of a tsvector
-- without positions. Every statement that writes an event row writes them from the text the library passes, the
-- words joined by spaces, through array_to_tsvector: PostgreSQL's parser, dictionaries and stemmer never read them,
-- so a tsquery of quoted lexemes ('invoice' & 'pai':*) matches exactly the library's words and prefixes. Adding a
-- nullable column rewrites no rows. The GIN index answers a search; its pending list (fastupdate, the default) keeps
-- an append's cost near that of the row alone, and is merged by (auto)vacuum.
ALTER TABLE ${schema}.${prefix}events ADD COLUMN IF NOT EXISTS words tsvector;
CREATE INDEX IF NOT EXISTS ${prefix}events_words_idx ON ${schema}.${prefix}events USING gin (words);
-- The rows without words, in key order: those stored before this version until a store indexes them. Every write of
-- an event writes its words, so it stays empty, and a store's check at start reads nothing.
CREATE INDEX IF NOT EXISTS ${prefix}events_unindexed_idx ON ${schema}.${prefix}events (session_id, seq)
  WHERE words IS NULL;

-- The append functions of versions 1 and 4 take the events' words as one more argument, the last: the text of each
-- event's words, joined by spaces. The old forms go, so that no writer can store an event without its words.
DROP FUNCTION IF EXISTS ${schema}.${prefix}append_events(text, bigint, timestamptz, text[], text[], text[], text[],
  text[], json[], timestamptz[]);
DROP FUNCTION IF EXISTS ${schema}.${prefix}append_fresh(text, bigint, timestamptz, text[], text[], text[], text[],
  text[], json[], timestamptz[]);
DROP FUNCTION IF EXISTS ${schema}.${prefix}append_fresh_one(text, bigint, timestamptz, text, text, text, text, text,
  json, timestamptz);

-- append_events of V1__schema.sql, storing each event's words.
CREATE OR REPLACE FUNCTION ${schema}.${prefix}append_events(p_session_id text, p_expected bigint, p_now timestamptz,
    p_ids text[], p_types text[], p_run_ids text[], p_agent_ids text[], p_parent_ids text[], p_payloads json[],
    p_ts timestamptz[], p_words text[])
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
  INSERT INTO ${schema}.${prefix}events AS e (session_id, seq, id, type, run_id, agent_id, parent_id, payload, ts,
      words)
    SELECT p_session_id, v_base + b.position, b.id, b.type, b.run_id, b.agent_id, b.parent_id, b.payload, b.ts,
      array_to_tsvector(string_to_array(b.words, ' '))
    FROM unnest(p_ids, p_types, p_run_ids, p_agent_ids, p_parent_ids, p_payloads, p_ts, p_words) WITH ORDINALITY
      AS b(id, type, run_id, agent_id, parent_id, payload, ts, words, position)
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

-- append_fresh of V4__append_fresh.sql, storing each event's words.
CREATE OR REPLACE FUNCTION ${schema}.${prefix}append_fresh(p_session_id text, p_expected bigint, p_now timestamptz,
    p_ids text[], p_types text[], p_run_ids text[], p_agent_ids text[], p_parent_ids text[], p_payloads json[],
    p_ts timestamptz[], p_words text[])
  RETURNS bigint
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_size bigint := cardinality(p_ids);
  v_base bigint;
BEGIN
  UPDATE ${schema}.${prefix}sessions AS s SET last_seq = s.last_seq + v_size
    WHERE s.id = p_session_id AND s.last_seq = coalesce(p_expected, s.last_seq) AND s.shared_seq = 0
    RETURNING s.last_seq - v_size INTO v_base;
  IF NOT FOUND THEN
    IF coalesce(p_expected, 0) <> 0 THEN
      RETURN NULL;
    END IF;
    -- Unknown, or a fork, or at another last_seq: only an unknown session is created.
    IF NOT ${schema}.${prefix}create_appended_session(p_session_id, p_now, v_size) THEN
      RETURN NULL;
    END IF;
    v_base := 0;
  END IF;
  INSERT INTO ${schema}.${prefix}events AS e (session_id, seq, id, type, run_id, agent_id, parent_id, payload, ts,
      words)
    SELECT p_session_id, v_base + b.position, b.id, b.type, b.run_id, b.agent_id, b.parent_id, b.payload, b.ts,
      array_to_tsvector(string_to_array(b.words, ' '))
    FROM unnest(p_ids, p_types, p_run_ids, p_agent_ids, p_parent_ids, p_payloads, p_ts, p_words) WITH ORDINALITY
      AS b(id, type, run_id, agent_id, parent_id, payload, ts, words, position);
  RETURN v_base;
EXCEPTION WHEN unique_violation THEN
  RETURN NULL;
END
$$;

-- append_fresh_one of V4__append_fresh.sql, storing the event's words.
CREATE OR REPLACE FUNCTION ${schema}.${prefix}append_fresh_one(p_session_id text, p_expected bigint,
    p_now timestamptz, p_id text, p_type text, p_run_id text, p_agent_id text, p_parent_id text, p_payload json,
    p_ts timestamptz, p_words text)
  RETURNS bigint
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_base bigint;
BEGIN
  UPDATE ${schema}.${prefix}sessions AS s SET last_seq = s.last_seq + 1
    WHERE s.id = p_session_id AND s.last_seq = coalesce(p_expected, s.last_seq) AND s.shared_seq = 0
    RETURNING s.last_seq - 1 INTO v_base;
  IF NOT FOUND THEN
    IF coalesce(p_expected, 0) <> 0 THEN
      RETURN NULL;
    END IF;
    IF NOT ${schema}.${prefix}create_appended_session(p_session_id, p_now, 1) THEN
      RETURN NULL;
    END IF;
    v_base := 0;
  END IF;
  INSERT INTO ${schema}.${prefix}events AS e (session_id, seq, id, type, run_id, agent_id, parent_id, payload, ts,
      words)
    VALUES (p_session_id, v_base + 1, p_id, p_type, p_run_id, p_agent_id, p_parent_id, p_payload,
      coalesce(p_ts, p_now), array_to_tsvector(string_to_array(p_words, ' ')));
  RETURN v_base;
EXCEPTION WHEN unique_violation THEN
  RETURN NULL;
END
$$;
