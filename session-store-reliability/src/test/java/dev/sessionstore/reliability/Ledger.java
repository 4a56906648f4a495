package dev.sessionstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

/**
 * What writers were told, checked against what is stored: every acknowledged event id with the seq its append
 * returned, per session, and every reported outcome found untrue on the spot. Thread-safe.
 */
final class Ledger {

  private final Map<String, Map<String, Long>> acknowledged = new ConcurrentHashMap<>();
  private final List<String> untrue = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong acknowledgements = new AtomicLong();
  private final AtomicLong lastAcknowledgedNanos = new AtomicLong();

  /** Records that an append of {@code sessionId} returned {@code events}; a second seq for one id is untrue. */
  void acknowledge(String sessionId, List<Event> events) {
    events.forEach(event -> acknowledge(sessionId, event.id(), event.seq()));
  }

  /** Records that an append of {@code sessionId} returned event {@code eventId} at {@code seq}. */
  void acknowledge(String sessionId, String eventId, long seq) {
    Long earlier = acknowledged.computeIfAbsent(sessionId, id -> new ConcurrentHashMap<>()).putIfAbsent(eventId, seq);
    if (earlier != null && earlier != seq) {
      untrue(sessionId + "/" + eventId + " acknowledged at seq " + earlier + " and again at " + seq);
    }
    acknowledgements.incrementAndGet();
    lastAcknowledgedNanos.set(System.nanoTime());
  }

  /** Records an outcome that did not match what is stored. */
  void untrue(String description) {
    untrue.add(description);
  }

  /** How many event acknowledgements were recorded, replays included. */
  long acknowledgements() {
    return acknowledgements.get();
  }

  /** {@link System#nanoTime()} of the latest acknowledgement, 0 before the first. */
  long lastAcknowledgedNanos() {
    return lastAcknowledgedNanos.get();
  }

  /** The distinct event ids acknowledged, over all sessions. */
  long acknowledgedIds() {
    return acknowledged.values().stream().mapToLong(Map::size).sum();
  }

  /**
   * Reads every session the ledger knows through {@code reader} and asserts: no untrue outcome was recorded, seqs are
   * 1..n with no gap, no id is stored twice, and every acknowledged id is stored at its acknowledged seq.
   *
   * @return the figures: events found, acknowledged ids lost (always 0 when this returns)
   */
  Verdict verify(SessionStore reader) {
    long found = 0;
    List<String> lost = new ArrayList<>();
    for (Map.Entry<String, Map<String, Long>> session : acknowledged.entrySet()) {
      List<Event> stored = reader.events().read(session.getKey(), EventQuery.all()).items();
      found += stored.size();
      assertGaplessAndUnique(session.getKey(), stored);
      Map<String, Long> storedSeqs = new HashMap<>();
      stored.forEach(event -> storedSeqs.put(event.id(), event.seq()));
      session.getValue().forEach((id, seq) -> {
        if (!seq.equals(storedSeqs.get(id))) {
          lost.add(session.getKey() + "/" + id + " acknowledged at seq " + seq + ", stored at " + storedSeqs.get(id));
        }
      });
    }
    assertThat(untrue).as("reported outcomes that were untrue").isEmpty();
    assertThat(lost).as("acknowledged events missing or moved").isEmpty();
    return new Verdict(acknowledgedIds(), found, lost.size());
  }

  /** Asserts that {@code events} of one session have seqs 1..n and distinct ids. */
  static void assertGaplessAndUnique(String sessionId, List<Event> events) {
    assertThat(events.stream().mapToLong(Event::seq).boxed().toList()).as("seqs of " + sessionId)
        .containsExactlyElementsOf(LongStream.rangeClosed(1, events.size()).boxed().toList());
    assertThat(events.stream().map(Event::id).distinct().count()).as("distinct ids of " + sessionId)
        .isEqualTo(events.size());
  }

  /** The outcome of {@link #verify}: distinct ids acknowledged, events found in the store, acknowledged ids lost. */
  record Verdict(long acknowledgedIds, long found, long lost) {
  }
}
