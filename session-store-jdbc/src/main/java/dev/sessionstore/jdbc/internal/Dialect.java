package dev.sessionstore.jdbc.internal;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import javax.sql.DataSource;

/**
 * What differs between SQL databases, and only that: the JSON columns, upserts, row locking for the per-session
 * head, the batch append statement, waking waiting reads, and reading driver errors. Everything else is plain SQL
 * shared by every dialect. {@link PostgresDialect} is the one implementation.
 */
interface Dialect {

  /** The classpath folder of this dialect's migration scripts, ending in {@code /}. */
  String migrationFolder();

  /** A query that waits for the database-wide lock with the key given as its parameter. */
  String acquireMigrationLock();

  /** A query that releases the lock {@link #acquireMigrationLock()} took. */
  String releaseMigrationLock();

  /**
   * A bind parameter holding a document's {@link Json#text()}, converted to the type of the document columns. That
   * type must give back the text exactly as written (SPEC guarantee 18): never one that reorders keys, drops
   * whitespace or renders numbers anew, as PostgreSQL {@code jsonb} does.
   */
  String jsonParameter();

  /**
   * A bind parameter holding session metadata as a JSON object of strings, converted to the type of the metadata
   * column, which is queried by containment and whose text is never returned as written.
   */
  String metadataParameter();

  /**
   * A document column read back as {@link Json}, or {@code null} for SQL {@code NULL}: the text written, checked
   * once more by {@link Json#parse} (the column may have been written by other clients of the database).
   */
  Json readJson(ResultSet row, String column) throws SQLException;

  /** The clause that makes an insert update the row it collides with on {@code conflictTarget}. */
  String onConflictUpdate(String conflictTarget, String assignments);

  /** The clause that makes an insert skip a row that collides on {@code conflictTarget}. */
  String onConflictIgnore(String conflictTarget);

  /**
   * The clause appended to a {@code SELECT} of rows the transaction will change, locking them against other writers
   * until commit without blocking foreign-key checks of rows that reference them.
   */
  String lockForUpdate();

  /**
   * Appends {@code events} (distinct) to the session at whatever its head is once this statement holds the head's
   * lock, and moves the head; one statement, which raises no error for ids the session stores. An unknown session
   * is created, unless {@code expectedHead} is above 0. Writes nothing when {@code expectedHead} is given and the
   * head is elsewhere, nor (without even locking the head) when one of the ids is stored in the statement's
   * snapshot. An id stored
   * by a transaction that committed after that snapshot is skipped: the head has moved by the whole batch, and
   * {@link HeadMove#inserted()} is less than the batch size.
   *
   * @return the head move, or empty if nothing was written
   */
  Optional<HeadMove> appendAtHead(Connection connection, Tables tables, String sessionId, List<NewEvent> events,
      Instant now, OptionalLong expectedHead) throws SQLException;

  /**
   * What {@link #appendAtHead} wrote.
   *
   * @param head     the head the events were appended after (their seqs are head + 1 …)
   * @param inserted how many of the events were inserted; fewer than the batch if some id was stored meanwhile
   */
  record HeadMove(long head, long inserted) {}

  /**
   * Appends {@code events} (fresh, distinct) after {@code head}, which this transaction has locked, and moves the
   * head; one statement.
   */
  void appendAtLockedHead(Connection connection, Tables tables, String sessionId, long head, List<NewEvent> events,
      Instant now) throws SQLException;

  /** The earliest instant a timestamp column stores exactly. */
  Instant earliestStorable();

  /** Whether a timestamp column stores {@code instant} exactly: from {@link #earliestStorable()} to a last one. */
  boolean isStorable(Instant instant);

  /**
   * {@code instant}, if a timestamp column stores it exactly.
   *
   * @throws InvalidArgumentException naming {@code field} if it does not
   */
  default Instant requireStorable(String field, Instant instant) {
    if (!isStorable(instant)) {
      throw new InvalidArgumentException(field, instant + " is outside the range of instants the database stores");
    }
    return instant;
  }

  /** A parameter holding timestamps, for batch statements over arrays. */
  Array timestampArray(Connection connection, List<Instant> instants) throws SQLException;

  /**
   * A query that announces appends to the listeners of {@link #listen}, auto-committed: one notification on the
   * channel given as its first parameter for each wake key ({@link SessionWaiters#wakeKey}) of the text array given
   * as its second.
   */
  String notifyEach();

  /** Starts delivering other writers' appends to {@code waiters}. */
  WakeUpListener listen(DataSource dataSource, Tables tables, SessionWaiters waiters);

  /** What a driver error means for the store. */
  SqlFailure classify(SQLException error);

  /** The error's message as the database worded it, for the store's own messages. */
  default String message(SQLException error) {
    return String.valueOf(error.getMessage());
  }
}
