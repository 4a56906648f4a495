package dev.sessionstore.jdbc.internal;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.RetentionPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The checked configuration of one store, as {@link dev.sessionstore.jdbc.JdbcSessionStore.Builder} resolved it
 * (defaults applied). Schema and table prefix are the only identifiers that reach SQL text: no settings hold ones
 * that {@link #requireSchema} and {@link #requireTablePrefix} refuse.
 *
 * @param notificationDataSource where notifications are sent and listened for: {@code dataSource} unless one was
 *                               given for them
 * @param changePollInterval     how often a database without notifications (SQLite) is asked whether another
 *                               connection committed
 * @param connectTimeout         how long the build waits for its first connection
 * @param statementTimeout       the longest a statement of a call may run, or {@link Duration#ZERO} for no limit
 * @param retentionPolicy        what the store's retention schedule applies, or {@code null} for no schedule
 * @param retentionInterval      how often the schedule runs; {@code null} without a schedule
 */
public record StoreSettings(
    DataSource dataSource,
    String schema,
    String tablePrefix,
    Clock clock,
    boolean createSchema,
    boolean modelCallAudit,
    Duration deadlineSweepInterval,
    Duration waitPollInterval,
    Duration retryTimeout,
    boolean notifications,
    DataSource notificationDataSource,
    Duration keepAliveInterval,
    Duration changePollInterval,
    Duration migrationLockTimeout,
    Duration connectTimeout,
    Duration statementTimeout,
    RetentionPolicy retentionPolicy,
    Duration retentionInterval) {

  /** Identifiers the store puts into SQL: lower-case, so that quoting never changes their meaning. */
  private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*");
  /** PostgreSQL's identifier limit. */
  private static final int MAX_SCHEMA_LENGTH = 63;
  /** Leaves room for the longest derived name ({@code <prefix>session_checkpoints_session_fkey}) in 63. */
  private static final int MAX_PREFIX_LENGTH = 24;

  /**
   * Checks the identifiers.
   *
   * @throws InvalidArgumentException naming {@code schema} or {@code tablePrefix} if one is not allowed
   */
  public StoreSettings {
    requireSchema(schema);
    requireTablePrefix(tablePrefix);
  }

  /**
   * {@code schema}, if allowed: matching {@code [a-z_][a-z0-9_]*}, at most 63 chars, not starting with {@code pg_}.
   *
   * @throws InvalidArgumentException naming {@code schema} if not
   */
  public static String requireSchema(String schema) {
    requireIdentifier("schema", schema, MAX_SCHEMA_LENGTH);
    if (schema.startsWith("pg_")) {
      throw new InvalidArgumentException("schema",
          "\"" + schema + "\": names starting with pg_ are reserved by PostgreSQL; choose another name");
    }
    return schema;
  }

  /**
   * {@code tablePrefix}, if allowed: empty, or matching {@code [a-z_][a-z0-9_]*} with at most 24 chars, not starting
   * with {@code sqlite_} (SQLite reserves such names; refused on every database so that one prefix works on both).
   *
   * @throws InvalidArgumentException naming {@code tablePrefix} if not
   */
  public static String requireTablePrefix(String tablePrefix) {
    if (tablePrefix == null || !tablePrefix.isEmpty()) {
      requireIdentifier("tablePrefix", tablePrefix, MAX_PREFIX_LENGTH);
    }
    if (tablePrefix.startsWith("sqlite_")) {
      throw new InvalidArgumentException("tablePrefix",
          "\"" + tablePrefix + "\": names starting with sqlite_ are reserved by SQLite; choose another prefix");
    }
    return tablePrefix;
  }

  private static void requireIdentifier(String field, String value, int maxLength) {
    if (value == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    if (!IDENTIFIER.matcher(value).matches()) {
      throw new InvalidArgumentException(field, "\"" + value + "\" is not allowed: use lower-case letters, "
          + "digits and underscores, not starting with a digit ([a-z_][a-z0-9_]*)");
    }
    if (value.length() > maxLength) {
      throw new InvalidArgumentException(field, "\"" + value + "\" is " + value.length()
          + " chars long; use at most " + maxLength);
    }
  }
}
