package dev.sessionstore.jdbc.internal;

import java.util.HexFormat;

/**
 * The qualified names of one store's tables, and the other database-wide names derived from its schema and prefix
 * (notification channel, advisory lock key). The only identifiers that ever reach SQL text; the builder validated
 * both parts against {@code [a-z_][a-z0-9_]*}, and the schema is quoted so that even a keyword is safe.
 */
final class Tables {

  /** PostgreSQL truncates identifiers, channel names included, to 63 bytes. */
  private static final int MAX_IDENTIFIER_LENGTH = 63;

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

  /**
   * The {@code NOTIFY} channel appends to this store's tables announce themselves on: readable when it fits in an
   * identifier, else a digest of schema and prefix.
   */
  String channel() {
    String readable = "session_store." + schema + "." + prefix + "events";
    if (readable.length() <= MAX_IDENTIFIER_LENGTH) {
      return readable;
    }
    return "session_store." + HexFormat.of().formatHex(Digests.sha256(schema + "." + prefix), 0, 16);
  }

  /** The key of the advisory lock that serializes schema migrations of this schema and prefix. */
  long migrationLockKey() {
    byte[] digest = Digests.sha256("session-store migration " + schema + "." + prefix);
    long key = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      key = (key << 8) | (digest[i] & 0xff);
    }
    return key;
  }

  private String qualified(String table) {
    return quotedSchema() + "." + prefix + table;
  }
}
