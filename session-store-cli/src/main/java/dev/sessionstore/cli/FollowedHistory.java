package dev.sessionstore.cli;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import java.time.Instant;
import java.util.Optional;

/**
 * One history of a followed session: the session as it was created (its id and creation time) and what the
 * follower has seen of its log (the last event printed, the highest last seq read). {@link #check} tells whether a
 * page read from the store still belongs to this history. Since a log only grows, except when it is cut
 * ({@code truncate} removes a suffix) or the session is deleted and created again, a page belongs to it when the
 * session has the same creation time, its last seq has not gone back, the last event printed is still stored at its
 * seq (so the page continues what was printed, even if the log was cut and grew again past it in between) and so is
 * the page's newest event (so the page was not cut after it was read: if the newest event of a page is still in
 * place, so is every event before it). The check runs after the read. Not thread-safe.
 */
final class FollowedHistory {

  private final SessionStore store;
  private final String sessionId;
  private final Instant createdAt;
  private Event lastPrinted;
  private long lastSeq;

  FollowedHistory(SessionStore store, Session session) {
    this.store = store;
    this.sessionId = session.id();
    this.createdAt = session.createdAt();
  }

  String sessionId() {
    return sessionId;
  }

  /**
   * Whether {@code page}, read from the store before this call, belongs to this history; when it does, its last event
   * becomes the one printed last.
   *
   * @return the change that makes the page (or the history printed so far) no longer hold, or empty
   */
  Optional<HistoryChange> check(EventPage page) {
    Optional<Session> now = store.sessions().find(sessionId);
    if (now.isEmpty()) {
      return change(HistoryChange.Kind.DELETED, "was deleted; waiting for it to be created again");
    }
    if (!now.get().createdAt().equals(createdAt)) {
      return change(HistoryChange.Kind.REPLACED, "was replaced (created again at " + now.get().createdAt()
          + "); starting over on its new history");
    }
    long seq = store.events().lastSeq(sessionId);
    if (seq < lastSeq) {
      return change(HistoryChange.Kind.TRUNCATED, "was truncated (its last seq went back from " + lastSeq + " to "
          + seq + "); starting over on its new history");
    }
    Event newest = page.isEmpty() ? null : page.items().get(page.items().size() - 1);
    for (Event printedOrRead : new Event[] {lastPrinted, newest}) {
      if (printedOrRead != null && !stillStored(printedOrRead)) {
        return change(HistoryChange.Kind.TRUNCATED, "was truncated (event " + printedOrRead.id()
            + " is no longer at seq " + printedOrRead.seq() + "); starting over on its new history");
      }
    }
    lastSeq = seq;
    if (newest != null) {
      lastPrinted = newest;
    }
    return Optional.empty();
  }

  private boolean stillStored(Event event) {
    return store.events().find(sessionId, event.id()).filter(stored -> stored.seq() == event.seq()).isPresent();
  }

  private Optional<HistoryChange> change(HistoryChange.Kind kind, String what) {
    return Optional.of(new HistoryChange(kind, "session " + sessionId + " " + what));
  }
}
