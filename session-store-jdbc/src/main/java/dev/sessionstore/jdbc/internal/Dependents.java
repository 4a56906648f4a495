package dev.sessionstore.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Keeps forks whole when a session they share events with loses events: before a truncation or a deletion deletes
 * a session's rows of the events table, the rows that other sessions' segments name from the cut on are copied
 * into each of those sessions as its own, and the segments are pointed at the session itself (split at the cut where
 * they straddle it). Shared by truncation, step cuts and deletion, in their transaction.
 *
 * <p>The caller holds the lock of the losing sessions' rows, so no fork can start sharing from them meanwhile (a
 * fork holds a share lock on its parent and on every source of its segments while it copies their segments). The
 * dependents' rows are locked too, before their segments change, against their own truncations and forks. The
 * caller takes all these locks at once with {@link #lockTogether}, in the one id order a fork takes its own, so
 * a fork racing a truncation or deletion of its source never waits in a cycle with it. A
 * dependent's rows and its segments change together, in one transaction: a read, one statement, sees the shared
 * rows or the copies, never neither.
 */
final class Dependents {

  private final Dialect dialect;
  private final Sql sql;
  private final String lockDependents;
  private final String findDependents;
  private final String lockInIdOrder;
  private final String lockInIdOrderSkippingLocked;
  private final WriteChain materialize;
  /** The search index of the copies, where the store writes it itself. */
  private final SearchRows searchRows;
  /** The rows {@link #materialize} copies, each with its dependent's session id: to index the copies. */
  private final String toCopy;

  Dependents(Dialect dialect, Tables tables) {
    this.dialect = dialect;
    this.sql = new Sql(dialect);
    // Every statement has the same scope: segments of another session with a source in the list, reaching the cut.
    String dependent = dialect.isAnyOf("source_id") + " AND NOT " + dialect.isAnyOf("session_id");
    this.lockDependents = "SELECT id FROM " + tables.sessions() + " WHERE id IN (SELECT session_id FROM "
        + tables.segments() + " WHERE " + dependent + " AND to_seq >= ?) ORDER BY id" + dialect.lockForUpdate();
    this.findDependents = "SELECT DISTINCT session_id FROM " + tables.segments() + " WHERE " + dependent
        + " AND to_seq >= ?";
    this.lockInIdOrder = "SELECT id FROM " + tables.sessions() + " WHERE " + dialect.isAnyOf("id") + " ORDER BY id"
        + dialect.lockForUpdate();
    this.lockInIdOrderSkippingLocked = dialect.lockForUpdate().isEmpty() ? lockInIdOrder
        : lockInIdOrder + " SKIP LOCKED";
    // The copies keep the rows' indexed words, where the database keeps them in a column.
    String words = dialect.wordsColumn().map(column -> ", " + column).orElse("");
    String copiedRows = "FROM (SELECT session_id, source_id, from_seq, to_seq FROM " + tables.segments() + " WHERE "
        + dependent + " AND to_seq >= ?) g JOIN " + tables.events() + " e ON e.session_id = g.source_id"
        + " AND e.seq >= g.from_seq AND e.seq <= g.to_seq AND e.seq >= ?";
    this.searchRows = new SearchRows(dialect, tables);
    this.toCopy = "SELECT g.session_id, e.seq, e.payload " + copiedRows;
    this.materialize = WriteChain.after(dialect, "INSERT INTO " + tables.events() + " (" + EventRows.COLUMNS + words
            + ") SELECT g.session_id, e.seq, e.id, e.type, e.run_id, e.agent_id, e.parent_id, e.payload, e.ts"
            + dialect.wordsColumn().map(column -> ", e." + column).orElse("") + " " + copiedRows,
        List.of(
            // A segment straddling the cut: its part from the cut on becomes the dependent's own...
            "INSERT INTO " + tables.segments() + " (session_id, from_seq, to_seq, source_id)"
                + " SELECT session_id, ?, to_seq, session_id FROM " + tables.segments() + " WHERE " + dependent
                + " AND from_seq < ? AND to_seq >= ?",
            // ... and the part before it stays shared.
            "UPDATE " + tables.segments() + " SET to_seq = ? WHERE " + dependent + " AND from_seq < ? AND to_seq >= ?",
            // A segment wholly from the cut on becomes the dependent's own.
            "UPDATE " + tables.segments() + " SET source_id = session_id WHERE " + dependent + " AND from_seq >= ?"));
  }

  /**
   * Locks until commit, in id order and all together, the rows of {@code sources} and of every other session that
   * shares their events from {@code fromSeq} on; returns the ids among {@code sources} whose rows exist (and are now
   * locked). A fork share-locks its parent and its sources in the same id order, so the two never wait in a cycle.
   *
   * <p>The sessions sharing the events are learnt first without locks, then everything is locked in one statement.
   * Once the sources are locked no new fork can start sharing from them, so the set re-read under the locks is
   * final; if it grew (a fork committed between the read and the lock), the locks are given back by rolling back
   * to a savepoint taken before them, and it starts over with the larger set. Call it before this transaction
   * locks any session row. Where a writing transaction holds the whole database (SQLite) the set cannot change
   * and nothing is locked row by row: it only reads which sources exist.
   */
  List<String> lockTogether(Connection connection, Collection<String> sources, long fromSeq) throws SQLException {
    Set<String> wanted = new TreeSet<>(sources);
    if (dialect.lockForUpdate().isEmpty()) {
      return sql.list(connection, lockInIdOrder, row -> row.getString(1), dialect.textList(connection, wanted));
    }
    wanted.addAll(dependentsOf(connection, sources, fromSeq));
    while (true) {
      Savepoint before = connection.setSavepoint();
      List<String> locked = sql.list(connection, lockInIdOrder, row -> row.getString(1),
          dialect.textList(connection, wanted));
      List<String> dependents = dependentsOf(connection, sources, fromSeq);
      if (wanted.containsAll(dependents)) {
        connection.releaseSavepoint(before);
        return locked.stream().filter(sources::contains).toList();
      }
      connection.rollback(before); // gives back the locks taken since: the larger set is locked in order again
      wanted.addAll(dependents);
    }
  }

  /**
   * Like {@link #lockTogether}, but never waits: locks the rows of {@code sources} and of the sessions sharing their
   * events from {@code fromSeq} on only if no other transaction holds any of them ({@code SKIP LOCKED}), and
   * otherwise locks nothing and returns an empty list, so that a background sweep leaves a busy session to the
   * next sweep (and to whichever store instance holds it) instead of queuing behind it. A session among them that
   * no longer exists counts as busy too. Where a writing transaction holds the whole database (SQLite), the same as
   * {@link #lockTogether}.
   */
  List<String> tryLockTogether(Connection connection, Collection<String> sources, long fromSeq) throws SQLException {
    if (dialect.lockForUpdate().isEmpty()) {
      return lockTogether(connection, sources, fromSeq);
    }
    Set<String> wanted = new TreeSet<>(sources);
    wanted.addAll(dependentsOf(connection, sources, fromSeq));
    Savepoint before = connection.setSavepoint();
    List<String> locked = sql.list(connection, lockInIdOrderSkippingLocked, row -> row.getString(1),
        dialect.textList(connection, wanted));
    if (locked.size() == wanted.size() && wanted.containsAll(dependentsOf(connection, sources, fromSeq))) {
      connection.releaseSavepoint(before);
      return locked.stream().filter(sources::contains).toList();
    }
    connection.rollback(before); // gives back what was locked: someone else is on these sessions now
    return List.of();
  }

  private List<String> dependentsOf(Connection connection, Collection<String> sources, long fromSeq)
      throws SQLException {
    Object list = dialect.textList(connection, sources);
    return sql.list(connection, findDependents, row -> row.getString(1), list, list, fromSeq);
  }

  /**
   * Copies into their dependents the rows of {@code sources} with seq {@code >= fromSeq} that the dependents share,
   * before they are deleted, and indexes the copies where the store writes the search index itself; the caller's
   * transaction holds the lock of every source's row.
   */
  void keepWhole(Connection connection, Collection<String> sources, long fromSeq) throws SQLException {
    Object list = dialect.textList(connection, sources);
    List<String> dependents = sql.list(connection, lockDependents, row -> row.getString(1), list, list, fromSeq);
    if (dependents.isEmpty()) {
      return;
    }
    List<Object[]> copies = searchRows.toIndex(connection, toCopy, list, list, fromSeq, fromSeq);
    materialize.update(connection, new Object[] {list, list, fromSeq, fromSeq},
        new Object[] {fromSeq, list, list, fromSeq, fromSeq},
        new Object[] {fromSeq - 1, list, list, fromSeq, fromSeq},
        new Object[] {list, list, fromSeq});
    searchRows.indexRows(connection, copies);
  }
}
