-- session-store schema, version 5 (SQLite 3.43 or later): search, the twin of postgresql/V5__search.sql.
--
-- Placeholders as in V1__schema.sql. The store applies this file on a connection where it has registered its SQL
-- function session_store_words(payload): the distinct words of the payload as the library reads them
-- (dev.sessionstore.spi.SearchText.indexText: every JSON string value, split and normalized by
-- dev.sessionstore.SearchWords, joined by spaces). Teams that run migrations themselves need that function too: run
-- this version by building the store once with createSchema(true), or on a connection with the function registered,
-- then record it: INSERT INTO ${schema}.${prefix}schema_version (version, description) VALUES (5, 'search').
--
-- search: an FTS5 index of those words, one row per event row, its rowid the event row's rowid. Contentless (it
-- keeps no copy of the text) with contentless_delete, so that a row goes by its rowid alone. Its tokenizer splits
-- only at what no word holds: unicode61 without removing diacritics, letters, digits, private-use characters and
-- marks (the categories of dev.sessionstore.SearchWords) as token characters; it folds case as the library already
-- did. detail=none: a query is one-word phrases and prefixes, all of which must match, so no position is kept.
CREATE VIRTUAL TABLE ${schema}.${prefix}search USING fts5(words, content='', contentless_delete=1, detail=none,
  tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M*'");

-- The index changes with the events table in the statement that changes it, whichever statement that is (appends,
-- imports, the copies that keep forks whole, truncation, retention cuts, deletion, a payload rewritten by
-- re-encryption), so it commits with it. SQLite allows no schema name on the tables a trigger's statements name.
CREATE TRIGGER ${schema}.${prefix}events_search_insert AFTER INSERT ON ${prefix}events BEGIN
  INSERT INTO ${prefix}search (rowid, words) VALUES (new.rowid, session_store_words(new.payload));
END;
CREATE TRIGGER ${schema}.${prefix}events_search_delete AFTER DELETE ON ${prefix}events BEGIN
  DELETE FROM ${prefix}search WHERE rowid = old.rowid;
END;
CREATE TRIGGER ${schema}.${prefix}events_search_update AFTER UPDATE OF payload ON ${prefix}events BEGIN
  DELETE FROM ${prefix}search WHERE rowid = old.rowid;
  INSERT INTO ${prefix}search (rowid, words) VALUES (new.rowid, session_store_words(new.payload));
END;

-- The events stored before this version.
INSERT INTO ${schema}.${prefix}search (rowid, words)
  SELECT rowid, session_store_words(payload) FROM ${schema}.${prefix}events;
