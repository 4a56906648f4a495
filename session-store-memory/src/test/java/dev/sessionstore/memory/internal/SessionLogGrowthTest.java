package dev.sessionstore.memory.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SearchTerm;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The in-memory log does the same work for a call on a session of 100,000 events as on one of 1,000, and on forks
 * of each: the events its storages look at ({@link SessionLog#visits()}: lookups by id, events a range read
 * examines) are counted for what each store call does to the log (appends and steps look their ids up and append;
 * reads, waiting reads and revivals read a range; a search reads the events its words' postings name), and must be
 * the same count at both lengths.
 */
class SessionLogGrowthTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final int SHORT = 1_000;
  private static final int LONG = 100_000;

  /** A session's log and a fork of it, 100 events before its end. */
  private record Logs(SessionLog session, SessionLog fork, int length) {

    static Logs of(int length) {
      SessionLog session = new SessionLog("s");
      List<NewEvent> events = new ArrayList<>();
      for (int seq = 1; seq <= length; seq++) {
        String text = seq == length / 2 ? "the needle in the hay" : "only hay, seq " + seq;
        events.add(NewEvent.of("message").withId("e-" + seq).withPayload(Json.of("{\"text\":\"" + text + "\"}")));
      }
      session.append(events, NOW);
      return new Logs(session, session.forkAt("f", length - 100), length);
    }
  }

  /** What each call does to the logs, as the store does it; returns the visits it made. */
  private static Map<String, ToLongFunction<Logs>> calls() {
    Map<String, ToLongFunction<Logs>> calls = new LinkedHashMap<>();
    calls.put("append one event", logs -> counted(logs.session(), log -> {
      log.findAll(List.of("new-one"));
      log.append(List.of(NewEvent.of("message").withId("new-one")), NOW);
    }));
    calls.put("append a batch of 100", logs -> counted(logs.session(), log -> {
      List<NewEvent> batch = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        batch.add(NewEvent.of("message").withId("batch-" + i));
      }
      log.findAll(batch.stream().map(NewEvent::id).toList());
      log.append(batch, NOW);
    }));
    calls.put("replay a stored event", logs -> counted(logs.session(),
        log -> assertThat(log.findAll(List.of("e-" + logs.length() / 2))).hasSize(1)));
    calls.put("read the last 50", logs -> counted(logs.session(),
        log -> assertThat(log.read(EventQuery.all().last(50)).items()).hasSize(50)));
    calls.put("read 50 after a cursor in the middle", logs -> counted(logs.session(),
        log -> assertThat(log.read(EventQuery.all().after(logs.length() / 2).first(50)).items()).hasSize(50)));
    calls.put("find an event by id", logs -> counted(logs.session(),
        log -> assertThat(log.find("e-" + logs.length() / 2)).isNotNull()));
    calls.put("revive (the events after a summary 50 before the end)", logs -> counted(logs.session(),
        log -> assertThat(log.range(log.lastSeq() - 50, log.lastSeq())).hasSize(50)));
    calls.put("waiting read that finds an event", logs -> counted(logs.session(),
        log -> assertThat(log.read(EventQuery.all().after(log.lastSeq() - 1)).items()).hasSize(1)));
    calls.put("fork: append one event", logs -> counted(logs.fork(), log -> {
      log.findAll(List.of("fork-new"));
      log.append(List.of(NewEvent.of("message").withId("fork-new")), NOW);
    }));
    calls.put("fork: replay a shared event", logs -> counted(logs.fork(),
        log -> assertThat(log.findAll(List.of("e-" + logs.length() / 2))).hasSize(1)));
    calls.put("fork: read the last 50 (shared prefix)", logs -> counted(logs.fork(),
        log -> assertThat(log.read(EventQuery.all().last(50)).items()).hasSize(50)));
    calls.put("fork: read 50 after a cursor in the shared prefix", logs -> counted(logs.fork(),
        log -> assertThat(log.read(EventQuery.all().after(logs.length() / 2).first(50)).items()).hasSize(50)));
    calls.put("fork: find a shared event by id", logs -> counted(logs.fork(),
        log -> assertThat(log.find("e-" + logs.length() / 2)).isNotNull()));
    calls.put("search a word one event holds", logs -> counted(logs.session(), log -> {
      List<Event> found = new ArrayList<>();
      log.search(List.of(SearchTerm.word("needle"), SearchTerm.word("hay")), found);
      assertThat(found).hasSize(1);
    }));
    calls.put("fork: search a word one shared event holds", logs -> counted(logs.fork(), log -> {
      List<Event> found = new ArrayList<>();
      log.search(List.of(SearchTerm.prefix("needl")), found);
      assertThat(found).extracting(Event::sessionId).containsExactly("f");
    }));
    calls.put("fork: revive (shared prefix)", logs -> counted(logs.fork(),
        log -> assertThat(log.range(log.lastSeq() - 50, log.lastSeq())).hasSize(50)));
    return calls;
  }

  private interface LogCall {
    void run(SessionLog log);
  }

  private static long counted(SessionLog log, LogCall call) {
    long before = log.visits();
    call.run(log);
    return log.visits() - before;
  }

  @Test
  @DisplayName("Every call looks at as many events on a session of 100,000 events as on one of 1,000, forks too")
  void workDoesNotGrowWithTheSession() {
    Logs small = Logs.of(SHORT);
    Logs large = Logs.of(LONG);
    calls().forEach((name, call) -> {
      long atShort = call.applyAsLong(small);
      long atLong = call.applyAsLong(large);
      assertThat(atLong).as(name + ": events looked at, %d at %d events", atShort, SHORT).isEqualTo(atShort)
          .isPositive();
    });
  }
}
