package dev.sessionstore.cassandra.internal;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Step;
import dev.sessionstore.spi.Timeouts;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The event log on Cassandra: an append is a step of events ({@link StepWriter}), committed with the other plain
 * appends waiting for the same session ({@link GroupCommit}); a read scans the session's event
 * rows in seq order ({@link PartitionReader#page}), a waiting read re-reads when this instance appends to any session
 * and at every poll interval ({@link SessionWaiters}), and outlives nodes or a quorum it cannot reach until its
 * timeout, reading again with a backoff.
 */
final class CassandraEventLog implements EventLog {

  private final PartitionReader reader;
  private final StepWriter writer;
  private final GroupCommit groups;
  private final SessionWaiters waiters;
  private final long pollNanos;

  CassandraEventLog(Cql cql, PartitionReader reader, StepWriter writer, GroupCommit groups, SessionWaiters waiters) {
    this.reader = reader;
    this.writer = writer;
    this.groups = groups;
    this.waiters = waiters;
    this.pollNanos = cql.settings.pollInterval().toNanos();
  }

  @Override
  public Event append(String sessionId, NewEvent event) {
    return appendAll(sessionId, List.of(event)).get(0);
  }

  @Override
  public Event append(String sessionId, NewEvent event, long expectedLastSeq) {
    return appendAll(sessionId, List.of(event), expectedLastSeq).get(0);
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events) {
    if (events.isEmpty()) {
      return List.of();
    }
    return groups.append(sessionId, events);
  }

  @Override
  public List<Event> appendAll(String sessionId, List<NewEvent> events, long expectedLastSeq) {
    if (events.isEmpty()) {
      return List.of();
    }
    return writer.commit(Step.builder(sessionId).events(events).expectLastSeq(expectedLastSeq).build(), false)
        .events();
  }

  @Override
  public long lastSeq(String sessionId) {
    return Reads.run(() -> reader.header(sessionId, false).lastSeq());
  }

  @Override
  public Optional<Event> find(String sessionId, String eventId) {
    return Reads.run(() -> reader.event(sessionId, eventId));
  }

  @Override
  public EventPage read(String sessionId, EventQuery query) {
    return Reads.run(() -> reader.page(sessionId, query));
  }

  @Override
  public EventPage await(String sessionId, EventQuery query, Duration timeout) {
    long deadline = System.nanoTime() + Timeouts.nanos(timeout);
    SessionWaiters.Wait wait = waiters.startWait(sessionId);
    EventPage last = new EventPage(List.of(), OptionalLong.empty());
    while (true) {
      long seen = waiters.version();
      Optional<EventPage> page = wait.read(() -> read(sessionId, query));
      if (page.isPresent() && !page.get().isEmpty()) {
        wait.found();
        return page.get();
      }
      last = page.orElse(last);
      long left = deadline - System.nanoTime();
      if (left <= 0 || !wait.sleep(seen, Math.min(left, wait.pauseNanos(pollNanos)))) {
        return last;
      }
    }
  }

  @Override
  public int truncate(String sessionId, long fromSeq) {
    return writer.commit(Step.builder(sessionId).truncateFrom(fromSeq).build(), true).removed();
  }
}
