package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.cassandra.internal.Rows.Header;
import dev.sessionstore.spi.EventFilter;
import dev.sessionstore.spi.EventPaging;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads of sessions' partitions. Each read touches one partition (or, for {@link #sessions}, the session rows of
 * named partitions), at the read consistency, or at the serial one when the caller settles a doubt: a serial read
 * first finishes any conditional write still in flight on the partition, so it sees the partition as every later
 * condition will.
 */
final class PartitionReader {

  /** Ids and seqs per {@code IN} list: bounded so that a 10,000-event batch becomes a few reads. */
  private static final int IN_CHUNK = 500;

  /** Rows fetched per page when scanning a log. */
  private static final int PAGE_SIZE = 500;

  private final Cql cql;
  private final String ns;
  private final CutHints cutHints = new CutHints();

  PartitionReader(Cql cql) {
    this.cql = cql;
    this.ns = cql.settings.namespace();
  }

  /** The partition's head, last seq and session; {@link Header#EMPTY} for an unknown session. */
  Header header(String sessionId, boolean serial) {
    return Rows.header(cql.read(cql.header.bind(ns, sessionId), serial).one(), 0);
  }

  /** The stored sessions among {@code sessionIds}, in no particular order. */
  List<Session> sessions(Collection<String> sessionIds) {
    return headers(sessionIds).stream().map(Header::session).toList();
  }

  /** The headers of the stored sessions among {@code sessionIds}, in no particular order. */
  List<Header> headers(Collection<String> sessionIds) {
    List<Header> headers = new ArrayList<>();
    for (List<String> chunk : chunks(List.copyOf(sessionIds))) {
      for (Row row : cql.read(cql.sessionsIn.bind(ns, chunk))) {
        Header header = Rows.header(row, 1);
        if (header.exists()) {
          headers.add(header);
        }
      }
    }
    return headers;
  }

  /**
   * The timestamp of the session's last event as {@code header} shows the partition (one row read by its key);
   * {@code null} when the log holds none (empty, or cut through its last seq).
   */
  Instant lastEventAt(String sessionId, Header header, boolean serial) {
    if (header.lastSeq() <= header.cutSeq()) {
      return null;
    }
    Row row = cql.read(cql.eventsIn.bind(ns, sessionId, List.of(Rows.eventKey(header.lastSeq()))), serial).one();
    return row == null ? null : Rows.event(sessionId, row).timestamp();
  }

  /**
   * The seqs and ids of the session's events with {@code afterSeq < seq <= toSeq}, oldest-first (the id column only,
   * not the payloads): what a cut of the log's head through {@code toSeq} removes.
   */
  List<Map.Entry<Long, String>> eventIds(String sessionId, long afterSeq, long toSeq, boolean serial) {
    List<Map.Entry<Long, String>> ids = new ArrayList<>();
    BoundStatement scan = cql.eventIdsAsc.bind(ns, sessionId, Rows.eventKey(afterSeq), Rows.eventKey(toSeq))
        .setPageSize(PAGE_SIZE);
    for (Row row : cql.read(scan, serial)) {
      ids.add(Map.entry(row.getLong(0), row.getString(1)));
    }
    return ids;
  }

  /**
   * The seqs the session's id rows give these ids, by id (an id row of an event a retention cut removed may point
   * below the cut until deleted: {@link #eventsByIds} finds no event there).
   */
  Map<String, Long> eventSeqs(String sessionId, Collection<String> ids, boolean serial) {
    Map<String, Long> seqs = new HashMap<>();
    for (List<String> chunk : chunks(List.copyOf(ids))) {
      for (Row row : cql.read(cql.idsIn.bind(ns, sessionId, chunk), serial)) {
        seqs.put(row.getString(0), row.getLong(1));
      }
    }
    return seqs;
  }

  /** The stored events of the session with these ids, by id. */
  Map<String, Event> eventsByIds(String sessionId, Collection<String> ids, boolean serial) {
    List<String> seqKeys = new ArrayList<>();
    for (long seq : eventSeqs(sessionId, ids, serial).values()) {
      seqKeys.add(Rows.eventKey(seq));
    }
    Map<String, Event> events = new HashMap<>();
    for (List<String> chunk : chunks(seqKeys)) {
      for (Row row : cql.read(cql.eventsIn.bind(ns, sessionId, chunk), serial)) {
        Event event = Rows.event(sessionId, row);
        events.put(event.id(), event);
      }
    }
    return events;
  }

  /** The session's event with this id. */
  Optional<Event> event(String sessionId, String eventId) {
    return Optional.ofNullable(eventsByIds(sessionId, List.of(eventId), false).get(eventId));
  }

  /**
   * The session's events with {@code seq >= fromSeq}, oldest-first, read from the first live seq that {@code header}
   * shows (past a retention cut's tombstones).
   */
  List<Event> eventsFrom(String sessionId, Header header, long fromSeq, boolean serial) {
    List<Event> events = new ArrayList<>();
    BoundStatement scan = cql.eventsAsc.bind(ns, sessionId, Rows.eventKey(header.liveAfter(fromSeq - 1)),
        Rows.eventKey(Long.MAX_VALUE))
        .setPageSize(PAGE_SIZE);
    for (Row row : cql.read(scan, serial)) {
      events.add(Rows.event(sessionId, row));
    }
    return events;
  }

  /**
   * The page {@code query} selects from the session's log: scanned in fetch order, filtered, then paged. The scan
   * starts after the seq this instance last saw the log cut through ({@link CutHints}; read from the header the first
   * time, one request more), so it does not walk the rows a retention cut removed; the rows it returns carry the
   * partition's {@code cut_seq}, and a scan that started above it (or found nothing above a start it cannot check)
   * is checked by it, or by the header, and read again from there.
   */
  EventPage page(String sessionId, EventQuery query) {
    long after = query.after();
    long before = query.before().orElse(Long.MAX_VALUE);
    if (before <= after + 1) {
      return EventPaging.page(List.of(), query);
    }
    long start = cutHints.get(sessionId);
    if (start < 0) {
      start = cutHints.put(sessionId, header(sessionId, false).cutSeq());
    }
    while (true) {
      long from = Math.max(after, start);
      List<Event> fetched = new ArrayList<>();
      long seen = from >= before - 1 ? -1 : scan(sessionId, query, from, before, fetched);
      if (from == after) {
        if (seen >= 0) {
          cutHints.put(sessionId, seen);
        }
        return EventPaging.page(fetched, query);
      }
      long cutSeq = cutHints.put(sessionId, seen >= 0 ? seen : header(sessionId, false).cutSeq());
      if (cutSeq >= from) {
        return EventPaging.page(fetched, query);
      }
      start = cutSeq;
    }
  }

  /**
   * Scans {@code from < seq < before} in the query's fetch order into {@code fetched}, filtered, up to what the query
   * needs; returns the partition's {@code cut_seq} as the scanned rows show it, -1 when none came back.
   */
  private long scan(String sessionId, EventQuery query, long from, long before, List<Event> fetched) {
    BoundStatement scan = (EventPaging.fetchesNewestFirst(query) ? cql.eventsDesc : cql.eventsAsc)
        .bind(ns, sessionId, Rows.eventKey(from), Rows.eventKey(before))
        .setPageSize(query.limit().isPresent() ? Math.min(PAGE_SIZE, query.limit().getAsInt() + 1) : PAGE_SIZE);
    long wanted = EventPaging.fetchLimit(query).orElse(Long.MAX_VALUE);
    long cutSeq = -1;
    for (Row row : cql.read(scan)) {
      cutSeq = row.isNull(8) ? 0 : row.getLong(8);
      Event event = Rows.event(sessionId, row);
      if (EventFilter.matches(query, event)) {
        fetched.add(event);
        if (fetched.size() >= wanted) {
          break;
        }
      }
    }
    return cutSeq;
  }

  /** Forgets where this instance last saw the session's log start, after it cut the log itself. */
  void forgetCut(String sessionId) {
    cutHints.forget(sessionId);
  }

  /** The session's runs, unordered, each with the order it was saved in. */
  List<SavedRun> runs(String sessionId) {
    List<SavedRun> runs = new ArrayList<>();
    for (Row row : cql.read(cql.runs.bind(ns, sessionId))) {
      runs.add(new SavedRun(Rows.run(sessionId, row), Rows.savedOrder(row)));
    }
    return runs;
  }

  /** The session's run with this id. */
  Optional<Run> run(String sessionId, String runId, boolean serial) {
    Row row = cql.read(cql.run.bind(ns, sessionId, runId), serial).one();
    return row == null ? Optional.empty() : Optional.of(Rows.run(sessionId, row));
  }

  /** The session's summaries by ascending {@code toSeq}. */
  List<Summary> summaries(String sessionId) {
    List<Summary> summaries = new ArrayList<>();
    for (Row row : cql.read(cql.summaries.bind(ns, sessionId))) {
      summaries.add(Rows.summary(sessionId, row));
    }
    return summaries;
  }

  /** The session's summaries with {@code toSeq >= fromSeq}. */
  List<Summary> summariesFrom(String sessionId, long fromSeq, boolean serial) {
    List<Summary> summaries = new ArrayList<>();
    for (Row row : cql.read(cql.summariesFrom.bind(ns, sessionId, Rows.eventKey(fromSeq)), serial)) {
      summaries.add(Rows.summary(sessionId, row));
    }
    return summaries;
  }

  /** The session's summary with the greatest {@code toSeq}. */
  Optional<Summary> latestSummary(String sessionId) {
    return summaryIn(sessionId, cql.read(cql.latestSummary.bind(ns, sessionId)).one());
  }

  /** The session's summary with this {@code toSeq}. */
  Optional<Summary> summary(String sessionId, long toSeq) {
    return summaryIn(sessionId, cql.read(cql.summary.bind(ns, sessionId, Rows.eventKey(toSeq))).one());
  }

  /** The session's summary with the greatest {@code toSeq} below {@code toSeq}. */
  Optional<Summary> summaryBefore(String sessionId, long toSeq) {
    return summaryIn(sessionId, cql.read(cql.summaryBefore.bind(ns, sessionId, Rows.eventKey(toSeq))).one());
  }

  private static Optional<Summary> summaryIn(String sessionId, Row row) {
    return row == null ? Optional.empty() : Optional.of(Rows.summary(sessionId, row));
  }

  /**
   * The session's events with {@code afterSeq < seq <= toSeq}, oldest-first, read from the first live seq that
   * {@code header} shows (past a retention cut's tombstones).
   */
  List<Event> eventsBetween(String sessionId, Header header, long afterSeq, long toSeq) {
    return scanBetween(sessionId, header, afterSeq, toSeq, false).orElseThrow();
  }

  /**
   * The session's latest summary and its header, as one read of the partition shows them (so as one consistent view);
   * empty when the session holds no summary.
   */
  Optional<LatestSummary> latestSummaryWithHeader(String sessionId) {
    Row row = cql.read(cql.latestSummaryWithHeader.bind(ns, sessionId)).one();
    return row == null ? Optional.empty()
        : Optional.of(new LatestSummary(Rows.summary(sessionId, row), Rows.header(row, Cql.SUMMARY_WIDTH)));
  }

  /** A summary and the header of its partition, read together. */
  record LatestSummary(Summary summary, Header header) {
  }

  /**
   * {@link #eventsBetween}, read with the partition's head in every row: the events when each row shows the head of
   * {@code header} (no write landed since {@code header} was read, so they and it are one consistent view); empty
   * when a row shows another head, or none is left where {@code header} shows events.
   */
  Optional<List<Event>> eventsBetweenIfUnchanged(String sessionId, Header header, long afterSeq, long toSeq) {
    return scanBetween(sessionId, header, afterSeq, toSeq, true);
  }

  /**
   * The live events with {@code afterSeq < seq <= toSeq}, oldest first; with {@code checkHead}, empty instead when a
   * row shows another head than {@code header}'s, or no row is left where {@code header} shows events.
   */
  private Optional<List<Event>> scanBetween(String sessionId, Header header, long afterSeq, long toSeq,
      boolean checkHead) {
    List<Event> events = new ArrayList<>();
    long from = header.liveAfter(afterSeq);
    if (toSeq <= from) {
      return Optional.of(events);
    }
    BoundStatement scan = (checkHead ? cql.eventsAscWithHead : cql.eventsAsc)
        .bind(ns, sessionId, Rows.eventKey(from), Rows.eventKey(toSeq + 1)).setPageSize(PAGE_SIZE);
    for (Row row : cql.read(scan)) {
      if (checkHead && !Objects.equals(row.getUuid(Cql.EVENT_WIDTH), header.head())) {
        return Optional.empty();
      }
      events.add(Rows.event(sessionId, row));
    }
    return checkHead && events.isEmpty() ? Optional.empty() : Optional.of(events);
  }

  /**
   * {@code read} of the session as one consistent view: its result is used only when the partition's head is the
   * same before and after it (no write landed in between), else it is read again.
   */
  <T> T consistent(String sessionId, Function<Header, T> read) {
    while (true) {
      Header before = header(sessionId, false);
      T result = read.apply(before);
      if (Objects.equals(before.head(), header(sessionId, false).head())) {
        return result;
      }
    }
  }

  /** The session's tool calls with these ids, as stored (a due call is not expired here), by id. */
  Map<String, ToolCall> toolCalls(String sessionId, Collection<String> ids, boolean serial) {
    Map<String, ToolCall> calls = new HashMap<>();
    for (List<String> chunk : chunks(List.copyOf(ids))) {
      for (Row row : cql.read(cql.toolCallsIn.bind(ns, sessionId, chunk), serial)) {
        ToolCall call = Rows.toolCall(sessionId, row);
        calls.put(call.id(), call);
      }
    }
    return calls;
  }

  /** Every tool call of the session, as stored, in no particular order. */
  List<ToolCall> toolCalls(String sessionId, boolean serial) {
    List<ToolCall> calls = new ArrayList<>();
    for (Row row : cql.read(cql.toolCalls.bind(ns, sessionId).setPageSize(PAGE_SIZE), serial)) {
      calls.add(Rows.toolCall(sessionId, row));
    }
    return calls;
  }

  /** Which of {@code names} the session holds checkpoints under. */
  Set<String> checkpointNames(String sessionId, Collection<String> names, boolean serial) {
    Set<String> found = new HashSet<>();
    for (List<String> chunk : chunks(List.copyOf(names))) {
      for (Row row : cql.read(cql.checkpointsIn.bind(ns, sessionId, chunk), serial)) {
        found.add(row.getString(0));
      }
    }
    return found;
  }

  /** Every checkpoint of the session. */
  List<Checkpoint> checkpoints(String sessionId) {
    List<Checkpoint> checkpoints = new ArrayList<>();
    for (Row row : cql.read(cql.checkpoints.bind(ns, sessionId))) {
      checkpoints.add(Rows.checkpoint(CheckpointKey.of(sessionId, row.getString(0)), row));
    }
    return checkpoints;
  }

  /** The session's checkpoint {@code name}. */
  Optional<Checkpoint> checkpoint(String sessionId, String name) {
    Row row = cql.read(cql.checkpoint.bind(ns, sessionId, name)).one();
    return row == null ? Optional.empty() : Optional.of(Rows.checkpoint(CheckpointKey.of(sessionId, name), row));
  }

  /** A run with the position of its last save among the session's writes. */
  record SavedRun(Run run, long savedOrder) {
  }

  private static List<List<String>> chunks(List<String> all) {
    List<List<String>> chunks = new ArrayList<>();
    for (int from = 0; from < all.size(); from += IN_CHUNK) {
      chunks.add(all.subList(from, Math.min(all.size(), from + IN_CHUNK)));
    }
    return chunks;
  }
}
