-- session-store schema, version 6 (PostgreSQL 12 or later): session expiry.
--
-- Placeholders as in V1__schema.sql. Teams that run migrations themselves apply this file after version 5, then
-- record it: INSERT INTO ${schema}.${prefix}schema_version (version, description) VALUES (6, 'expiry').
--
-- expires_at: when the session expires, as its writer set it (dev.sessionstore.Session#expiresAt); NULL when it
-- never expires, as every session stored before this version. The store never deletes a session because it
-- expired. Adding a nullable column without a default rewrites no rows.
ALTER TABLE ${schema}.${prefix}sessions ADD COLUMN IF NOT EXISTS expires_at timestamptz;

-- What a query by expiry (SessionQuery#expiresBefore) reads a range of: only sessions that have an expiry, so the
-- index holds none of the others and the query visits only the sessions that match.
CREATE INDEX IF NOT EXISTS ${prefix}sessions_expiry_idx ON ${schema}.${prefix}sessions (expires_at)
  WHERE expires_at IS NOT NULL;
