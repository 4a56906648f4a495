package dev.sessionstore.conformance;

import dev.sessionstore.Event;
import dev.sessionstore.EventLog;
import dev.sessionstore.EventQuery;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/** Small views of event lists that the event-log groups compare, so failure messages show seqs and ids. */
final class Events {

  private Events() {
  }

  /** The seqs of {@code events}, in list order. */
  static List<Long> seqs(List<Event> events) {
    return events.stream().map(Event::seq).collect(Collectors.toList());
  }

  /** The ids of {@code events}, in list order. */
  static List<String> ids(List<Event> events) {
    return events.stream().map(Event::id).collect(Collectors.toList());
  }

  /** {@code from, from + 1, ..., to}; empty when {@code to < from}. */
  static List<Long> range(long from, long to) {
    return LongStream.rangeClosed(from, to).boxed().collect(Collectors.toList());
  }

  /** The whole log of {@code sessionId}, oldest-first. */
  static List<Event> readAll(EventLog log, String sessionId) {
    return log.read(sessionId, EventQuery.all()).items();
  }
}
