package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewSummary;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The calls whose work must not grow with a session's length, on a session of a given length and on a fork of it:
 * appends (one event, a batch of 100, a replay), a step, tail and page reads, a lookup by id, a revival, a waiting
 * read that finds its events, and the same reads and appends through the fork's shared prefix. A growth test runs
 * them at two lengths and compares the work the database did for each.
 *
 * <p>The session {@code <name>} holds {@code length} events, agents {@code a} and {@code b} alternating, and a
 * summary up to 50 events before its end; the fork {@code <name>-fork}, made 100 events before the end, holds a
 * summary of its own up to 20 events before the fork point, and every read of it reaches into the shared prefix.
 */
final class SessionLengthWorkload {

  /** A named call of the workload; each call stores fresh ids. */
  record Call(String name, Runnable run) {
  }

  private static final int FILL_BATCH = 2_000;

  private final SessionStore store;
  private final String session;
  private final String fork;
  private final int length;
  private final AtomicLong ids = new AtomicLong();

  private SessionLengthWorkload(SessionStore store, String session, int length) {
    this.store = store;
    this.session = session;
    this.fork = session + "-fork";
    this.length = length;
  }

  /** Fills session {@code session} of {@code store} to {@code length} events and forks it. */
  static SessionLengthWorkload prepare(SessionStore store, String session, int length) {
    SessionLengthWorkload workload = new SessionLengthWorkload(store, session, length);
    for (int from = 1; from <= length; from += FILL_BATCH) {
      List<NewEvent> batch = new ArrayList<>();
      for (int seq = from; seq < from + FILL_BATCH && seq <= length; seq++) {
        batch.add(event("e-" + seq, seq % 2 == 0 ? "a" : "b"));
      }
      store.events().appendAll(session, batch);
    }
    store.summaries().put(session, NewSummary.of(1, length - 50, Json.of("{\"text\":\"so far\"}")));
    store.sessions().fork(session, length - 100, workload.fork);
    store.summaries().put(workload.fork, NewSummary.of(1, length - 120, Json.of("{\"text\":\"fork so far\"}")));
    return workload;
  }

  /** The calls, by name, in the order they run; each may run any number of times. */
  Map<String, Runnable> calls() {
    Map<String, Runnable> calls = new LinkedHashMap<>();
    calls.put("append one event", () -> store.events().append(session, fresh("a")));
    calls.put("append a batch of 100", () -> store.events().appendAll(session, freshBatch(100)));
    calls.put("replay a stored event", () -> store.events().append(session, event("e-" + (length / 2),
        length / 2 % 2 == 0 ? "a" : "b")));
    calls.put("commit a step", () -> store.commit(Step.builder(session).run(RunWrite.of("run-1", session))
        .event(fresh("a")).build()));
    calls.put("read the last 50", () -> assertThat(store.events().read(session, EventQuery.all().last(50))
        .items()).hasSize(50));
    calls.put("read 50 after a cursor in the middle", () -> assertThat(store.events().read(session,
        EventQuery.all().after(length / 2).first(50)).items()).hasSize(50));
    calls.put("find an event by id", () -> assertThat(store.events().find(session, "e-" + (length / 2)))
        .isPresent());
    calls.put("revive", () -> assertThat(store.summaries().revive(session).summary()).isPresent());
    calls.put("revive one agent", () -> assertThat(store.summaries().revive(session, "a").summary()).isPresent());
    calls.put("waiting read that finds events", () -> assertThat(store.events().await(session,
        EventQuery.all().after(store.events().lastSeq(session) - 1), Duration.ofSeconds(5)).items()).hasSize(1));
    calls.put("fork: append one event", () -> store.events().append(fork, fresh("a")));
    calls.put("fork: replay a shared event", () -> store.events().append(fork, event("e-" + (length / 2),
        length / 2 % 2 == 0 ? "a" : "b")));
    calls.put("fork: read the last 50 (shared prefix)", () -> assertThat(store.events().read(fork,
        EventQuery.all().last(50)).items()).hasSize(50));
    calls.put("fork: read 50 after a cursor in the shared prefix", () -> assertThat(store.events().read(fork,
        EventQuery.all().after(length / 2).first(50)).items()).hasSize(50));
    calls.put("fork: find a shared event by id", () -> assertThat(store.events().find(fork, "e-" + (length / 2)))
        .isPresent());
    calls.put("fork: revive (shared prefix)", () -> assertThat(store.summaries().revive(fork).summary())
        .isPresent());
    return calls;
  }

  private NewEvent fresh(String agent) {
    return event("new-" + ids.incrementAndGet(), agent);
  }

  private List<NewEvent> freshBatch(int size) {
    List<NewEvent> batch = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      batch.add(fresh(i % 2 == 0 ? "a" : "b"));
    }
    return batch;
  }

  private static NewEvent event(String id, String agent) {
    return new NewEvent(id, "message", null, agent, null,
        Json.of("{\"role\":\"assistant\",\"text\":\"a reply of about a hundred characters, as a chat turn would be\"}"),
        null);
  }
}
