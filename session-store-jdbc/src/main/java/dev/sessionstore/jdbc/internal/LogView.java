package dev.sessionstore.jdbc.internal;

import dev.sessionstore.Event;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A session's log as one query: its own rows of the events table and the rows it shares through its segments, with
 * the session's id. Every read of a log goes through it (pages, lookups by id, revivals and chapters, the replay
 * checks of appends and steps), so a fork shows its whole log everywhere, and a session that is no fork pays one
 * probe of the segments' primary key that finds nothing.
 *
 * <p>The query is two branches under {@code UNION ALL}, each filtered by the same condition and, when limited, ordered
 * and cut in its own index scan: the session's own rows, and, for each segment it shares from another session, that
 * session's rows in the segment's seq range (where the dialect {@linkplain Dialect#joinsLaterally joins laterally},
 * each segment limited on its own; else the joined rows limited together, ordered by segment first: segments tile
 * the shared seqs in order, so that order is seq order, and it is the order of the nested index scans, which then
 * stop at the limit instead of sorting every shared event). Neither branch sorts more than the events it returns.
 * A read without an order (a lookup of a few ids) bounds the shared rows' seqs with {@code +e.seq}, which no index
 * serves, so that the planner looks the ids up in the id key rather than walking the segment's seq range. The union
 * itself is in no order: the caller orders it, in an enclosing {@code ORDER BY} over at most a limit per branch and
 * segment, or with {@link #merge} in memory.
 *
 * <p>The parameters of a view are one block, bound twice in a row (once per branch): the session id, the
 * condition's parameters, then the limit when it is bound ({@code "?"}).
 */
final class LogView {

  /** The columns of an event row but its session id, as a segment's subquery returns them. */
  private static final String EVENT_COLUMNS = "seq, id, type, run_id, agent_id, parent_id, payload, ts";

  private final Tables tables;
  private final boolean lateral;
  private final String segmentsBySession;

  LogView(Dialect dialect, Tables tables) {
    this.tables = tables;
    this.lateral = dialect.joinsLaterally();
    this.segmentsBySession = dialect.segmentsBySession(tables);
  }

  /**
   * The query of a session's events that satisfy {@code condition}: a condition on the event columns, unqualified.
   *
   * @param selectList what each row returns, over the event columns, unqualified; {@code session_id} is the viewing
   *                   session's id in both branches
   * @param order      the order each branch takes its events in before its limit, e.g. {@code "seq DESC"}, or
   *                   {@code null} for a read of a few rows by id, which no order must keep from the id key (on
   *                   SQLite, without statistics, an order by seq plans a walk of the session's seq key instead)
   * @param limit      {@code null} for none, {@code "?"} for a bound one, or a constant; only with an order
   */
  String select(String selectList, String condition, String order, String limit) {
    String orderAndLimit = order == null ? "" : " ORDER BY " + order + (limit == null ? "" : " LIMIT " + limit);
    String segments = "(SELECT session_id, source_id, from_seq, to_seq FROM " + segmentsBySession
        + " WHERE session_id = ? AND source_id <> session_id) g";
    String shared = lateral
        ? "SELECT " + selectList + " FROM " + segments + " CROSS JOIN LATERAL (SELECT " + EVENT_COLUMNS + " FROM "
            + tables.events() + " WHERE session_id = g.source_id AND seq >= g.from_seq AND seq <= g.to_seq AND ("
            + condition + ")" + orderAndLimit + ") e"
        : "SELECT " + selectList + " FROM " + segments + " JOIN (SELECT session_id AS source_id_of_row, "
            + EVENT_COLUMNS + " FROM " + tables.events() + ") e ON e.source_id_of_row = g.source_id"
            + (order == null ? " AND +e.seq >= g.from_seq AND +e.seq <= g.to_seq" : " AND e.seq >= g.from_seq"
                + " AND e.seq <= g.to_seq")
            + " WHERE (" + condition + ")" + (order == null ? "" : " ORDER BY g.from_seq"
                + (order.endsWith(" DESC") ? " DESC, " : ", ") + order + (limit == null ? "" : " LIMIT " + limit));
    return "SELECT * FROM (SELECT " + selectList + " FROM " + tables.events() + " WHERE session_id = ? AND ("
        + condition + ")" + orderAndLimit + ") own_rows UNION ALL SELECT * FROM (" + shared + ") shared_rows";
  }

  /** {@code block}, the parameters of one branch, twice: the parameters of a {@link #select}. */
  static List<Object> parameters(List<Object> block) {
    List<Object> both = new ArrayList<>(block);
    both.addAll(block);
    return both;
  }

  /**
   * The events of a view's rows in seq order, newest-first when {@code newestFirst}, at most {@code limit}: the
   * branches come sorted each, so this is a merge.
   */
  static List<Event> merge(List<Event> rows, boolean newestFirst, long limit) {
    List<Event> sorted = new ArrayList<>(rows);
    Comparator<Event> bySeq = Comparator.comparingLong(Event::seq);
    sorted.sort(newestFirst ? bySeq.reversed() : bySeq);
    return sorted.size() > limit ? sorted.subList(0, (int) limit) : sorted;
  }
}
