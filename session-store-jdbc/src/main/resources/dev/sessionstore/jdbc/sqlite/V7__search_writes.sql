-- session-store schema, version 7 (SQLite): the store writes the search index itself.
--
-- Placeholders as in V1__schema.sql. Teams that run migrations themselves apply this file after version 6, then
-- record it: INSERT INTO ${schema}.${prefix}schema_version (version, description) VALUES (7, 'search_writes').
--
-- Until this version, triggers on the events table wrote the FTS5 table search
-- (V5__search.sql) by calling session_store_words(payload), a Java function the store registered on each of its
-- connections. From this version the store writes each event's row of search in the transaction that writes the
-- event (appends, steps, imports, the copies that keep forks whole, a payload rewritten by re-encryption), with the
-- words it computes from the payload it holds, in one statement per append. The index stays exact across this
-- version: every row in it was written by the triggers, and nothing is indexed anew.
--
-- The delete trigger stays: it calls no function. An event row inserted by another writer (the sqlite3 shell, a
-- tool) is now stored, but is not found by search until the store rewrites it.
DROP TRIGGER ${schema}.${prefix}events_search_insert;
DROP TRIGGER ${schema}.${prefix}events_search_update;
