package dev.sessionstore.jdbc.internal;

/**
 * The qualified names of one store's tables, derived from its schema and prefix (the dialect derives the other
 * database-wide names from the same two: notification channel, migration lock). The only identifiers that ever
 * reach SQL text; the builder validated both parts against {@code [a-z_][a-z0-9_]*}, and the schema is quoted so
 * that even a keyword is safe.
 */
final class Tables {

  private final String schema;
  private final String prefix;

  Tables(String schema, String prefix) {
    this.schema = schema;
    this.prefix = prefix;
  }

  String schemaName() {
    return schema;
  }

  String prefix() {
    return prefix;
  }

  /** The quoted schema, as {@code ${schema}} in the migration scripts. */
  String quotedSchema() {
    return '"' + schema + '"';
  }

  String sessions() {
    return qualified("sessions");
  }

  String events() {
    return qualified("events");
  }

  /** SQLite's full-text index of the events' words (schema version 5); PostgreSQL keeps them in the events table. */
  String search() {
    return qualified("search");
  }

  /** The segments through which forks share their ancestors' events. */
  String segments() {
    return qualified("segments");
  }

  String runs() {
    return qualified("runs");
  }

  String toolCalls() {
    return qualified("tool_calls");
  }

  String summaries() {
    return qualified("summaries");
  }

  String sessionCheckpoints() {
    return qualified("session_checkpoints");
  }

  String globalCheckpoints() {
    return qualified("global_checkpoints");
  }

  String modelCalls() {
    return qualified("model_calls");
  }

  /** The current writer claim of every session id ever claimed; kept when a session is deleted. */
  String writerClaims() {
    return qualified("writer_claims");
  }

  /** The function that appends a batch in one call, where the dialect's schema has one. */
  String appendEventsFunction() {
    return qualified("append_events");
  }

  /** The function that appends fresh events in one call where nothing needs settling, where the schema has one. */
  String appendFreshFunction() {
    return qualified("append_fresh");
  }

  /** The function that appends one fresh event in one call where nothing needs settling, where the schema has one. */
  String appendFreshOneFunction() {
    return qualified("append_fresh_one");
  }

  String schemaVersion() {
    return qualified("schema_version");
  }

  /** The unqualified name of the schema version table, for catalog lookups. */
  String schemaVersionTableName() {
    return prefix + "schema_version";
  }

  /** The name of a table or constraint of this store, unqualified, for matching error details. */
  String name(String suffix) {
    return prefix + suffix;
  }

  private String qualified(String table) {
    return quotedSchema() + "." + prefix + table;
  }
}
