package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import dev.sessionstore.benchmarks.StoreKind;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What does keeping the search index cost an append? The same library appends (one event in its own commit, and a
 * 100-event atomic batch) on two databases alike, interleaved call by call: one as the library creates it, one whose
 * search index is removed after the library created it. PostgreSQL: the GIN index on the events' words is dropped;
 * the library still computes each event's words and stores them in the row (so the difference is the index's
 * maintenance). SQLite: the FTS5 table is replaced by a plain table of the same name and columns (the library still
 * computes each event's words and writes them, one row per event, so the difference is the FTS5 index's maintenance;
 * its delete trigger, which appends never fire, deletes from the plain table). Here the baseline is the library
 * without the index, so a ratio below 1× is what the index costs.
 */
final class SearchIndexOverhead implements Measure {

  private static final String SESSION = "conversation";

  @Override
  public String name() {
    return "what the search index adds to appends";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    try (PgSchema indexed = bench.schemaWithTables("search_on");
        PgSchema unindexed = bench.schemaWithTables("search_off")) {
      unindexed.execute("DROP INDEX " + unindexed.name() + "." + StoreKind.TABLE_PREFIX + "events_words_idx");
      try (SessionStore with = indexed.openStore(); SessionStore without = unindexed.openStore()) {
        compare(bench, results, "PostgreSQL", with, without);
      }
    }
    try (SqliteFile indexed = SqliteFile.withTables("search_on");
        SqliteFile unindexed = SqliteFile.withTables("search_off")) {
      replaceIndexByTable(unindexed);
      try (SessionStore with = indexed.openStore(); SessionStore without = unindexed.openStore()) {
        compare(bench, results, "SQLite", with, without);
      }
    }
    results.baseline("search index overhead", "the same library append on a database alike whose search index was "
        + "removed after the library created it: on PostgreSQL the GIN index over the events' words (the words are "
        + "still computed and stored in the row), on SQLite the FTS5 table replaced by a plain table of the same "
        + "columns (the words are still computed and written, one row per event).");
  }

  private static void compare(Bench bench, Results results, String database, SessionStore with,
      SessionStore without) throws Exception {
    Sides single = Interleave.pairs(bench.scale().warmup(2_000), bench.scale().calls(3_000),
        Trial.timed(Events::reply, event -> with.events().append(SESSION, event)),
        Trial.timed(Events::reply, event -> without.events().append(SESSION, event)));
    addRow(results, database + ": single-event append with the search index, vs without it", single);
    Sides batches = Interleave.pairs(bench.scale().warmup(50), bench.scale().calls(300),
        Trial.timed(i -> Events.replies(i, 100), batch -> with.events().appendAll(SESSION, batch)),
        Trial.timed(i -> Events.replies(i, 100), batch -> without.events().appendAll(SESSION, batch)));
    addRow(results, database + ": 100-event atomic batch with the search index, vs without it", batches);
  }

  private static void addRow(Results results, String name, Sides sides) {
    results.add(new Row(name, Numbers.percentiles(sides.library()), Numbers.percentiles(sides.baseline()),
        Numbers.ratio(sides.latencyRatio()), "—", true));
  }

  /** Drops the FTS5 table and creates a plain rowid table of its name and columns. */
  private static void replaceIndexByTable(SqliteFile file) throws SQLException {
    try (Connection connection = file.pool().getConnection(); Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE " + StoreKind.TABLE_PREFIX + "search");
      statement.execute("CREATE TABLE " + StoreKind.TABLE_PREFIX + "search (words TEXT NOT NULL)");
    }
  }
}
