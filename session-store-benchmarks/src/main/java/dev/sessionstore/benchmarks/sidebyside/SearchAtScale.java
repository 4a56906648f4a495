package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.StoreKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * How long does a selective search take over a store of {@link Scale#longSession()} events spread over
 * {@value #SESSIONS} sessions, against the same index queried by hand? Every event's text holds the word
 * {@code w<k>} with {@code k} = its number modulo the store's events / {@value #HOLDERS}, so each {@code w<k>} is held
 * by {@value #HOLDERS} events across the store; call {@code i} searches one such word store-wide and, second row,
 * within one session that holds it. Both sides read the same rows. PostgreSQL: filled server-side, words written as the library writes them
 * (the lexemes of the text's words); SQLite: filled through the library in batches of 1,000, so that it indexes
 * every event. Also reports the index's size per event.
 */
final class SearchAtScale implements Measure {

  static final int SESSIONS = 10_000;
  static final int HOLDERS = 20;
  private static final double P99_MILLIS = 20;

  @Override
  public String name() {
    return "search over a million events";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    int events = bench.scale().longSession();
    int perSession = Math.max(1, events / SESSIONS);
    int sessions = Math.min(SESSIONS, events);
    try (PgSchema schema = bench.schemaWithTables("search");
        SessionStore store = schema.openStore()) {
      fillPostgres(schema, sessions, perSession, words(events));
      measure(bench, results, "PostgreSQL", events, store, schema.pool(),
          "SELECT session_id, seq, id, type, payload, ts FROM " + schema.table("events")
              + " WHERE words @@ ?::tsquery ORDER BY ts DESC, session_id, seq DESC LIMIT 20",
          "SELECT session_id, seq, id, type, payload, ts FROM " + schema.table("events")
              + " WHERE session_id = ? AND words @@ ?::tsquery ORDER BY ts DESC, seq DESC LIMIT 20",
          word -> "'" + word + "'",
          "SELECT pg_relation_size('" + schema.name() + "." + StoreKind.TABLE_PREFIX + "events_words_idx')");
    }
    try (SqliteFile sqlite = SqliteFile.withTables("search");
        SessionStore store = sqlite.openStore()) {
      fillThroughLibrary(store, sessions, perSession, words(events));
      measure(bench, results, "SQLite", events, store, sqlite.pool(),
          "SELECT e.session_id, e.seq, e.id, e.type, e.payload, e.ts FROM session_store_search AS s"
              + " JOIN session_store_events AS e ON e.rowid = s.rowid WHERE session_store_search MATCH ?"
              + " ORDER BY e.ts DESC, e.session_id, e.seq DESC LIMIT 20",
          "SELECT e.session_id, e.seq, e.id, e.type, e.payload, e.ts FROM session_store_search AS s"
              + " JOIN session_store_events AS e ON e.rowid = s.rowid WHERE e.session_id = ?"
              + " AND session_store_search MATCH ? ORDER BY e.ts DESC, e.seq DESC LIMIT 20",
          word -> "\"" + word + "\"",
          "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'session_store_search%'");
    }
  }

  private interface Quoting {
    String query(String word);
  }

  private static void measure(Bench bench, Results results, String database, int events, SessionStore store,
      DataSource pool, String storeWideSql, String sessionSql, Quoting quoting, String indexSizeSql)
      throws Exception {
    int sessions = Math.min(SESSIONS, events);
    int words = words(events);
    String storeWide = database + ": search a word held by " + HOLDERS + " of "
        + Numbers.count(events) + " events, store-wide";
    String oneSession = database + ": the same words within one session of " + Numbers.count(events / sessions);
    Sides wide = Interleave.pairs(bench.scale().warmup(100), bench.scale().calls(1_000),
        Trial.timed(i -> requireHits(store.search().find(SearchQuery.of(word(i, words))).hits().size())),
        Trial.timed(i -> requireHits(raw(pool, storeWideSql, null, quoting.query(word(i, words))))));
    results.add(new Row(storeWide, Numbers.percentiles(wide.library()), Numbers.percentiles(wide.baseline()),
        Numbers.ratio(wide.latencyRatio()), "p99 ≤ " + Numbers.round(P99_MILLIS) + " ms",
        wide.library().p99() <= P99_MILLIS));
    results.baseline(storeWide, "one statement on the same index by hand, newest 20 of the matching rows; no exact "
        + "re-check, score, excerpt or cursor, which the library computes for each match.");
    Sides within = Interleave.pairs(bench.scale().warmup(100), bench.scale().calls(1_000),
        Trial.timed(i -> requireHits(store.search().find(SearchQuery.of(word(i, words))
            .session(session(i, words, sessions))).hits().size())),
        Trial.timed(i -> requireHits(raw(pool, sessionSql, session(i, words, sessions),
            quoting.query(word(i, words))))));
    results.add(new Row(oneSession, Numbers.percentiles(within.library()), Numbers.percentiles(within.baseline()),
        Numbers.ratio(within.latencyRatio()), "p99 ≤ " + Numbers.round(P99_MILLIS) + " ms",
        within.library().p99() <= P99_MILLIS));
    results.baseline(oneSession, "the same statement narrowed to the session's rows by hand.");
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
        ResultSet size = statement.executeQuery(indexSizeSql)) {
      size.next();
      results.baseline(database + ": index size", Numbers.amount(size.getLong(1) / (double) events)
          + " bytes per event (" + Numbers.count(size.getLong(1)) + " bytes for " + Numbers.count(events)
          + " events)");
    } catch (SQLException unavailable) {
      results.baseline(database + ": index size", "not measured: " + unavailable.getMessage());
    }
  }

  /** How many distinct {@code w<k>} words a store of {@code events} holds, each in {@value #HOLDERS} events. */
  private static int words(int events) {
    return Math.max(1, events / HOLDERS);
  }

  /** The word call {@code i} searches: spread over the store, the same on both sides. */
  private static String word(int i, int words) {
    return "w" + key(i, words);
  }

  /** A session holding {@link #word(int, int)}: event {@code key} (the first holder) lies in session key mod sessions. */
  private static String session(int i, int words, int sessions) {
    return "s-" + key(i, words) % sessions;
  }

  private static int key(int i, int words) {
    return (int) ((long) i * 7919 % words);
  }

  private static void requireHits(int hits) {
    if (hits == 0) {
      throw new IllegalStateException("a search the fill made selective found nothing");
    }
  }

  private static int raw(DataSource pool, String sql, String sessionId, String query) throws SQLException {
    try (Connection connection = pool.getConnection(); PreparedStatement statement = connection.prepareStatement(sql)) {
      int index = 1;
      if (sessionId != null) {
        statement.setString(index++, sessionId);
      }
      statement.setString(index, query);
      int rows = 0;
      try (ResultSet row = statement.executeQuery()) {
        while (row.next()) {
          row.getString(5);
          rows++;
        }
      }
      return rows;
    }
  }

  /** The text of event {@code n} (from 0), store-wide. */
  private static String text(long n, int words) {
    return "order " + (n % 97) + " item w" + (n % words) + " shipped on time";
  }

  private static void fillPostgres(PgSchema schema, int sessions, int perSession, int words) throws SQLException {
    try (Connection connection = schema.pool().getConnection(); Statement statement = connection.createStatement()) {
      statement.execute("INSERT INTO " + schema.table("sessions")
          + " (id, status, settings, metadata, last_seq, created_at, updated_at)"
          + " SELECT 's-' || s, 'active', '{}', '{}', " + perSession + ", now(), now()"
          + " FROM generate_series(0, " + (sessions - 1) + ") AS s");
      statement.execute("INSERT INTO " + schema.table("events") + " (session_id, seq, id, type, payload, ts, words)"
          + " SELECT 's-' || (n % " + sessions + "), n / " + sessions + " + 1, 'e-' || n, 'message',"
          + " json_build_object('text', t), now() - make_interval(secs => n / 1000.0),"
          + " array_to_tsvector(string_to_array(t, ' '))"
          + " FROM generate_series(0, " + ((long) sessions * perSession - 1) + ") AS n,"
          + " LATERAL (SELECT 'order ' || (n % 97) || ' item w' || (n % " + words + ") || ' shipped on time') AS x(t)");
      statement.execute("VACUUM ANALYZE " + schema.table("events"));
    }
  }

  private static void fillThroughLibrary(SessionStore store, int sessions, int perSession, int words) {
    for (int s = 0; s < sessions; s += 10) {
      for (int k = s; k < Math.min(sessions, s + 10); k++) {
        List<NewEvent> batch = new ArrayList<>();
        for (int seq = 0; seq < perSession; seq++) {
          long n = (long) seq * sessions + k;
          batch.add(NewEvent.of("message", Json.from(Map.of("text", text(n, words)))).withId("e-" + n));
        }
        List<Event> stored = store.events().appendAll("s-" + k, batch);
        if (stored.size() != batch.size()) {
          throw new IllegalStateException("the fill stored " + stored.size() + " of " + batch.size());
        }
      }
    }
  }
}
