-- session-store schema, version 8 (SQLite): nothing changes. The version is PostgreSQL's (its one-event append
-- function no longer opens a subtransaction); SQLite's store appends by statements of its own, in a short
-- transaction, and has no such function. Both databases keep the same version numbers. Teams that run migrations
-- themselves record it after version 7:
-- INSERT INTO ${schema}.${prefix}schema_version (version, description) VALUES (8, 'append_one_without_subtransaction').
SELECT 1;
