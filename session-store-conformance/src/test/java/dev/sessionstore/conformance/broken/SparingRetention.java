package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Retention;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The symptom of a retention cut that leaves some of the events it should remove: a broken store's {@link Spare}
 * picks, from each session's cut events, those it keeps; they stay in the session's whole-log read
 * ({@link EventQuery#all()}) and out of the report's count, as if never cut.
 */
final class SparingRetention {

  /** The events of a cut that a broken store keeps. */
  interface Spare {
    /**
     * Which of {@code cut} (oldest-first, never empty) the store keeps.
     * @param session the session the cut was in
     * @param cut the events the cut removed
     * @return the events kept, a sublist of {@code cut}
     */
    List<Event> kept(Session session, List<Event> cut);
  }

  private final SessionStore correct;
  private final Spare spare;
  private final Map<String, List<Event>> spared = new ConcurrentHashMap<>();

  SparingRetention(SessionStore correct, Spare spare) {
    this.correct = correct;
    this.spare = spare;
  }

  /** {@code correct} with this retention and the reads that show what it spared. */
  SessionStore store() {
    return ForwardingStore.of(correct).withRetention(this::retention).withEvents(this::events);
  }

  private Retention retention(Retention retention) {
    return new ForwardingRetention(retention) {
      @Override
      public RetentionReport apply(RetentionPolicy policy) {
        List<Session> sessions = correct.sessions().list(SessionQuery.all()).items();
        Map<String, List<Event>> before = new HashMap<>();
        sessions.forEach(session -> before.put(session.id(), read(session.id())));
        RetentionReport report = delegate.apply(policy);
        long kept = 0;
        for (Session session : sessions) {
          List<Event> after = read(session.id());
          long firstLeft = after.isEmpty() ? Long.MAX_VALUE : after.get(0).seq();
          List<Event> cut = before.get(session.id()).stream().filter(event -> event.seq() < firstLeft).toList();
          List<Event> keep = cut.isEmpty() || after.isEmpty() ? List.of() : spare.kept(session, cut);
          if (!keep.isEmpty()) {
            spared.merge(session.id(), keep, SparingRetention::concat);
            kept += keep.size();
          }
        }
        return new RetentionReport(report.dryRun(), report.sessions(), report.events() - kept, report.modelCalls());
      }
    };
  }

  private EventLog events(EventLog log) {
    return new ForwardingEventLog(log) {
      @Override
      public EventPage read(String sessionId, EventQuery query) {
        EventPage page = delegate.read(sessionId, query);
        List<Event> kept = spared.get(sessionId);
        return kept == null || !query.equals(EventQuery.all()) ? page
            : new EventPage(concat(kept, page.items()), page.nextCursor());
      }
    };
  }

  private List<Event> read(String sessionId) {
    return correct.events().read(sessionId, EventQuery.all()).items();
  }

  private static List<Event> concat(List<Event> first, List<Event> then) {
    List<Event> all = new ArrayList<>(first);
    all.addAll(then);
    return all;
  }
}
