-- session-store schema, version 6 (SQLite 3.38 or later): session expiry, the twin of postgresql/V6__expiry.sql.
--
-- Placeholders as in V1__schema.sql. Teams that run migrations themselves apply this file after version 5, then
-- record it: INSERT INTO ${schema}.${prefix}schema_version (version, description) VALUES (6, 'expiry').
--
-- expires_at: when the session expires, as its writer set it (dev.sessionstore.Session#expiresAt), in microseconds
-- since the epoch like every timestamp column here; NULL when it never expires, as every session stored before this
-- version. The store never deletes a session because it expired.
ALTER TABLE ${schema}.${prefix}sessions ADD COLUMN expires_at INTEGER;

-- What a query by expiry (SessionQuery#expiresBefore) reads a range of: only sessions that have an expiry, so the
-- index holds none of the others and the query visits only the sessions that match.
CREATE INDEX IF NOT EXISTS ${schema}.${prefix}sessions_expiry_idx ON ${prefix}sessions (expires_at)
  WHERE expires_at IS NOT NULL;
