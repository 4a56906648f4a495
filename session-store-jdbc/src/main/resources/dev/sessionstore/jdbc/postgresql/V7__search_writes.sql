-- session-store schema, version 7 (PostgreSQL): nothing changes. The version is SQLite's (its store writes the search
-- index itself instead of by triggers); PostgreSQL's store has always written each event's words, a column of the
-- events table, with the event (V5__search.sql). Both databases keep the same version numbers. Teams that run
-- migrations themselves record it after version 6:
-- INSERT INTO ${schema}.${prefix}schema_version (version, description) VALUES (7, 'search_writes').
SELECT 1;
