package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An event log whose waiting reads sleep on a monitor of their own: this log's appends wake them, and so does
 * {@link #wake()}, which a broken store calls after the writes it still signals. Writes it does not signal leave the
 * reads asleep until their timeout.
 */
final class AppendsWakeWaitersLog extends ForwardingEventLog {

  private final Object changed = new Object();

  AppendsWakeWaitersLog(EventLog delegate) {
    super(delegate);
  }

  /** Wakes every waiting read of this log, to re-read its query. */
  void wake() {
    synchronized (changed) {
      changed.notifyAll();
    }
  }

  @Override
  public Event append(String sessionId, NewEvent event) {
    return woken(delegate.append(sessionId, event));
  }

  @Override
  public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
    return woken(delegate.append(sessionId, event, expectedLastSeq));
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events) {
    return woken(delegate.appendAll(sessionId, events));
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events, long expectedLastSeq) {
    return woken(delegate.appendAll(sessionId, events, expectedLastSeq));
  }

  @Override
  public EventPage await(String sessionId, EventQuery query, Duration timeout) {
    if (timeout.isNegative()) {
      return delegate.await(sessionId, query, timeout);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (changed) {
      EventPage page = delegate.read(sessionId, query);
      long left = deadline - System.nanoTime();
      while (page.isEmpty() && left > 0) {
        try {
          TimeUnit.NANOSECONDS.timedWait(changed, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return page;
        }
        page = delegate.read(sessionId, query);
        left = deadline - System.nanoTime();
      }
      return page;
    }
  }

  private <T> T woken(T written) {
    wake();
    return written;
  }
}
