-- session-store schema, version 8 (PostgreSQL 12 or later): the one-event fresh append without a subtransaction.
--
-- Placeholders as in V1__schema.sql. Teams that run migrations themselves apply this file after version 7, then
-- record it: INSERT INTO ${schema}.${prefix}schema_version (version, description)
-- VALUES (8, 'append_one_without_subtransaction').
--
-- append_fresh_one of V5__search.sql caught a stored id's unique violation in an EXCEPTION block, which in PL/pgSQL
-- opens a subtransaction on every call, not only on a replay: each append of one event took a second transaction id
-- (consumed towards wraparound, its parent recorded in pg_subtrans) besides its own. From this version it inserts
-- with the id key's conflict clause, as append_events does, and a call whose id is stored undoes its own writes,
-- still under the session row's lock: the last seq moves back, or a session the call created goes (it holds no
-- event: a session is created without events). The outcomes are those of version 5, call for call: the last seq
-- before the event when it is appended; otherwise NULL with nothing changed (a fork, another last seq, the id
-- stored), and the caller runs append_events. A replay still raises no error, to the client or into the server log.
--
-- append_fresh, for batches, keeps its block: there one subtransaction serves the whole batch, and the conflict
-- clause's speculative insertion costs more per row than it saves (100 events, calls of both forms alternating, on a
-- shared 2-core machine: 1.83 ms of server CPU per call with the block against 1.96-2.21 ms with the clause).
-- Same signature: CREATE OR REPLACE keeps every grant on it.
CREATE OR REPLACE FUNCTION ${schema}.${prefix}append_fresh_one(p_session_id text, p_expected bigint,
    p_now timestamptz, p_id text, p_type text, p_run_id text, p_agent_id text, p_parent_id text, p_payload json,
    p_ts timestamptz, p_words text)
  RETURNS bigint
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_base bigint;
  v_created boolean := false;
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
    v_created := true;
  END IF;
  INSERT INTO ${schema}.${prefix}events AS e (session_id, seq, id, type, run_id, agent_id, parent_id, payload, ts,
      words)
    VALUES (p_session_id, v_base + 1, p_id, p_type, p_run_id, p_agent_id, p_parent_id, p_payload,
      coalesce(p_ts, p_now), array_to_tsvector(string_to_array(p_words, ' ')))
    ON CONFLICT (session_id, id) DO NOTHING;
  IF FOUND THEN
    RETURN v_base;
  END IF;
  -- The id is stored: undo the call's write of the session row, still under its lock.
  IF v_created THEN
    DELETE FROM ${schema}.${prefix}sessions AS s WHERE s.id = p_session_id;
  ELSE
    UPDATE ${schema}.${prefix}sessions AS s SET last_seq = v_base WHERE s.id = p_session_id;
  END IF;
  RETURN NULL;
END
$$;
