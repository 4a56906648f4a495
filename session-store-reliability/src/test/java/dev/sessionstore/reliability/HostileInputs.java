package dev.sessionstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewSummary;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.ToolCallWrite;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The hostile inputs the reliability tests send through the public API: odd and oversize strings in every
 * string-valued field (ids, names, tenants, types, metadata), malformed and extreme JSON documents, and out-of-range
 * numbers (seqs, limits, timestamps, sizes). Each case writes or reads with one hostile value and returns the check
 * that what it stored reads back exactly; a case may instead fail with a typed error, as the runner decides.
 */
final class HostileInputs {

  /** Strings that break naive stores: blanks, control characters, surrogates, lookalikes, SQL and template syntax. */
  static final List<String> STRINGS = List.of(
      "", " ", "\t", "\n", "\r\n", "a\u0000b", "\u0000", "\ud800", "x\udc00y", "x".repeat(Limits.MAX_KEY_LENGTH),
      "x".repeat(Limits.MAX_KEY_LENGTH + 1), "\uD83D\uDE00".repeat(Limits.MAX_KEY_LENGTH / 2),
      "\uD83D\uDE00".repeat(Limits.MAX_KEY_LENGTH / 2 + 1), "\u00e9", "e\u0301", "\u0430", "a", " lead", "trail ",
      "UPPER", "upper", "'; DROP TABLE session_store_sessions; --", "\" OR 1=1 --", "%", "_", "\\", "\\'", "$1", "?",
      "\uFEFF", "\u202Eevil", "\u2028", "null", "NULL", "a/b/../c", "<script>", "${jndi:ldap://x}", "1e999");

  /** JSON texts: valid ones that must come back byte for byte, and every kind of invalid or oversize one. */
  static final List<String> DOCUMENTS = List.of(
      "{}", "[]", "null", "1", "\"s\"", "true", "  {\"a\" : 1 }  ", "{\"b\":1,\"a\":2}", "{\"a\":[1,2,{\"b\":null}]}",
      "{\"\u00e9\":\"e\\u0301\"}", "\"\\/\"", "-0", "0.10", "123456789012345678901234567890", "1E+2",
      "1".repeat(Limits.MAX_JSON_NUMBER_LENGTH), "1".repeat(Limits.MAX_JSON_NUMBER_LENGTH + 1), "1e400", "1e-400",
      "{", "}", "", " ", "{'a':1}", "[1,]", "tru", "/* c */ {}", "\uFEFF{}", "{\"a\":1,\"a\":2}", "NaN",
      "{\"n\":NaN}", "{\"n\":Infinity}", "{\"s\":\"\\u0000\"}", "{\"s\":\"\\ud800\"}", "{\"s\":\"\u0000\"}",
      "[".repeat(Limits.MAX_JSON_DEPTH) + "]".repeat(Limits.MAX_JSON_DEPTH),
      "[".repeat(Limits.MAX_JSON_DEPTH + 1) + "]".repeat(Limits.MAX_JSON_DEPTH + 1),
      "[".repeat(100_000), "\"" + "x".repeat(Limits.MAX_JSON_LENGTH - 2) + "\"",
      "\"" + "x".repeat(Limits.MAX_JSON_LENGTH - 1) + "\"");

  /**
   * A hostile call: its name, a harmless setup returning the session id the call works on, and the call, returning
   * the check of what it stored.
   */
  record Case(String name, Function<SessionStore, String> setup, BiFunction<SessionStore, String, Runnable> call) {
  }

  private final Map<String, Integer> counters = new HashMap<>();

  /**
   * Every case, in a fixed order, the bulky ones (documents past 100,000 chars, large checkpoints and batches) last so
   * that few snapshots of the store have to read them; session ids of the cases never collide.
   */
  List<Case> all() {
    List<Case> cases = new ArrayList<>();
    List<Case> bulky = new ArrayList<>();
    for (int i = 0; i < STRINGS.size(); i++) {
      cases.addAll(stringCases("string " + i, STRINGS.get(i)));
    }
    for (int i = 0; i < DOCUMENTS.size(); i++) {
      String text = DOCUMENTS.get(i);
      (text.length() > 100_000 ? bulky : cases).addAll(documentCases("document " + i, text));
    }
    cases.addAll(numberCases());
    bulky.addAll(sizeCases());
    cases.addAll(bulky);
    return Collections.unmodifiableList(cases);
  }

  private List<Case> stringCases(String label, String value) {
    return List.of(
        new Case(label + " as session id", nothing(), (store, id) -> {
          store.sessions().save(SessionWrite.of(value));
          return () -> assertThat(store.sessions().find(value).orElseThrow().id()).isEqualTo(value);
        }),
        new Case(label + " as session name", fresh("name"), (store, id) -> {
          store.sessions().save(SessionWrite.of(id).withName(value));
          return () -> assertThat(store.sessions().findByName(value).orElseThrow().id()).isEqualTo(id);
        }),
        new Case(label + " as tenant", fresh("tenant"), (store, id) -> {
          store.sessions().save(SessionWrite.of(id).withTenant(value));
          return () -> assertThat(store.sessions().list(SessionQuery.all().tenant(value)).items())
              .extracting(session -> session.id()).containsExactly(id);
        }),
        new Case(label + " as agent id", fresh("agent"), (store, id) -> {
          store.sessions().save(SessionWrite.of(id).withAgentId(value));
          return () -> assertThat(store.sessions().find(id).orElseThrow().agentId()).isEqualTo(value);
        }),
        new Case(label + " as metadata key", fresh("key"), (store, id) -> {
          store.sessions().save(SessionWrite.of(id).withMetadata(value, "v"));
          return () -> assertThat(store.sessions().find(id).orElseThrow().metadata()).isEqualTo(Map.of(value, "v"));
        }),
        new Case(label + " as metadata value", fresh("value"), (store, id) -> {
          store.sessions().save(SessionWrite.of(id).withMetadata("k", value));
          return () -> assertThat(store.sessions().find(id).orElseThrow().metadata()).isEqualTo(Map.of("k", value));
        }),
        new Case(label + " as event id", fresh("event"), (store, id) -> {
          Event stored = store.events().append(id, NewEvent.of("t").withId(value));
          return () -> assertThat(store.events().find(id, value)).contains(stored);
        }),
        new Case(label + " as event type", fresh("type"), (store, id) -> {
          Event stored = store.events().append(id, NewEvent.of(value));
          return () -> assertThat(store.events().read(id, EventQuery.all().types(value)).items())
              .containsExactly(stored);
        }),
        new Case(label + " as run id", fresh("run"), (store, id) -> {
          store.runs().save(RunWrite.of(value, id));
          return () -> assertThat(store.runs().find(id, value).orElseThrow().id()).isEqualTo(value);
        }),
        new Case(label + " as tool call id", fresh("call"), (store, id) -> {
          store.toolCalls().save(ToolCallWrite.of(value, id, "tool"));
          return () -> assertThat(store.toolCalls().find(id, value).orElseThrow().id()).isEqualTo(value);
        }),
        new Case(label + " as checkpoint name", fresh("checkpoint"), (store, id) -> {
          store.checkpoints().put(CheckpointKey.of(id, value), new byte[] {1, 2});
          return () -> assertThat(store.checkpoints().get(CheckpointKey.of(id, value)).orElseThrow().data())
              .containsExactly(1, 2);
        }));
  }

  private List<Case> documentCases(String label, String text) {
    return List.of(
        new Case(label + " as event payload", fresh("payload"), (store, id) -> {
          Event stored = store.events().append(id, NewEvent.of("t", Json.of(text)));
          return () -> assertThat(store.events().read(id, EventQuery.all()).items().get(0).payload().text())
              .isEqualTo(stored.payload().text()).isEqualTo(text);
        }),
        new Case(label + " as session settings", fresh("settings"), (store, id) -> {
          store.sessions().save(SessionWrite.of(id).withSettings(Json.of(text)));
          return () -> assertThat(store.sessions().find(id).orElseThrow().settings().text()).isEqualTo(text);
        }));
  }

  private List<Case> numberCases() {
    List<Case> cases = new ArrayList<>();
    for (long seq : new long[] {Long.MIN_VALUE, -1, 0, 4, Long.MAX_VALUE}) {
      cases.add(readCase("read after " + seq, () -> EventQuery.all().after(seq)));
      cases.add(readCase("read before " + seq, () -> EventQuery.all().before(seq)));
      cases.add(new Case("append expecting last seq " + seq, this::withThreeEvents, (store, id) -> {
        Event stored = store.events().append(id, NewEvent.of("t"), seq);
        return () -> assertThat(store.events().find(id, stored.id())).contains(stored);
      }));
      cases.add(new Case("truncate from " + seq, this::withThreeEvents, (store, id) -> {
        int removed = store.events().truncate(id, seq);
        return () -> assertThat(store.events().lastSeq(id)).isEqualTo(3 - removed);
      }));
      cases.add(new Case("fork at " + seq, this::withThreeEvents, (store, id) -> {
        String fork = store.sessions().fork(id, seq).id();
        return () -> assertThat(store.events().lastSeq(fork)).isEqualTo(seq);
      }));
      cases.add(new Case("summary from 1 to " + seq, this::withThreeEvents, (store, id) -> {
        store.summaries().put(id, NewSummary.of(1, seq, Json.of("{}")));
        return () -> assertThat(store.summaries().latest(id).orElseThrow().toSeq()).isEqualTo(seq);
      }));
    }
    for (int limit : new int[] {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE}) {
      cases.add(readCase("first " + limit, () -> EventQuery.all().first(limit)));
      cases.add(readCase("last " + limit, () -> EventQuery.all().last(limit)));
      cases.add(new Case("list sessions, limit " + limit, nothing(), (store, id) -> {
        store.sessions().list(SessionQuery.all().limit(limit));
        return () -> { };
      }));
      cases.add(new Case("list sessions, offset " + limit, nothing(), (store, id) -> {
        store.sessions().list(SessionQuery.all().offset(limit));
        return () -> { };
      }));
    }
    for (Instant instant : new Instant[] {Instant.MIN, Instant.EPOCH.minusSeconds(1), Instant.EPOCH,
        Instant.parse("9999-12-31T23:59:59.999999Z"), Instant.parse("+10000-01-01T00:00:00Z"), Instant.MAX}) {
      cases.add(new Case("event timestamp " + instant, fresh("timestamp"), (store, id) -> {
        Event stored = store.events().append(id, NewEvent.of("t").withTimestamp(instant));
        return () -> assertThat(store.events().find(id, stored.id())).contains(stored);
      }));
      cases.add(new Case("tool call deadline " + instant, fresh("deadline"), (store, id) -> {
        store.toolCalls().save(ToolCallWrite.of("c", id, "tool").withDeadline(instant));
        return () -> assertThat(store.toolCalls().find(id, "c")).isPresent();
      }));
      cases.add(readCase("read since " + instant, () -> EventQuery.all().since(instant)));
    }
    cases.add(new Case("batch holding null", fresh("null"), (store, id) -> {
      store.events().appendAll(id, java.util.Arrays.asList(NewEvent.of("t"), null));
      return () -> { };
    }));
    cases.add(new Case("metadata with one entry too many", fresh("entries"), (store, id) -> {
      Map<String, String> metadata = new HashMap<>();
      for (int i = 0; i <= Limits.MAX_METADATA_ENTRIES; i++) {
        metadata.put("k" + i, "v");
      }
      store.sessions().save(SessionWrite.of(id).withMetadata(metadata));
      return () -> { };
    }));
    return cases;
  }

  /** Large batches, then checkpoints up to past their bound: the bulkiest cases, largest last. */
  private List<Case> sizeCases() {
    List<Case> cases = new ArrayList<>();
    for (int size : new int[] {0, Limits.MAX_BATCH_SIZE, Limits.MAX_BATCH_SIZE + 1}) {
      cases.add(new Case("batch of " + size + " events", fresh("batch"), (store, id) -> {
        List<NewEvent> batch = Collections.nCopies(size, NewEvent.of("t")).stream()
            .map(event -> event.withId(nextId("id"))).toList();
        store.events().appendAll(id, batch);
        return () -> assertThat(store.events().lastSeq(id)).isEqualTo(size);
      }));
    }
    for (int size : new int[] {0, 1, Limits.MAX_CHECKPOINT_BYTES, Limits.MAX_CHECKPOINT_BYTES + 1}) {
      cases.add(new Case("checkpoint of " + size + " bytes", fresh("bytes"), (store, id) -> {
        byte[] data = new byte[size];
        store.checkpoints().put(CheckpointKey.of(id, "state"), data);
        return () -> assertThat(store.checkpoints().get(CheckpointKey.of(id, "state")).orElseThrow().data())
            .isEqualTo(data);
      }));
    }
    return cases;
  }

  /** A new session holding three events. */
  private String withThreeEvents(SessionStore store) {
    String id = nextId("three");
    store.events().appendAll(id, List.of(NewEvent.of("t"), NewEvent.of("t"), NewEvent.of("t")));
    return id;
  }

  /** The session the read cases read: three events, appended idempotently. */
  private String readSession(SessionStore store) {
    String id = "hostile-read";
    store.events().appendAll(id, List.of(NewEvent.of("t").withId("r-1"), NewEvent.of("t").withId("r-2"),
        NewEvent.of("t").withId("r-3")));
    return id;
  }

  /** A case reading the read cases' session with the query {@code query} builds (which may itself reject). */
  private Case readCase(String name, Supplier<EventQuery> query) {
    return new Case(name, this::readSession, (store, id) -> readCheck(store, id, query.get()));
  }

  /** Reads session {@code id} with {@code query} and checks the result against the query's bounds. */
  private static Runnable readCheck(SessionStore store, String id, EventQuery query) {
    List<Event> items = store.events().read(id, query).items();
    return () -> assertThat(items).allMatch(event -> event.seq() > query.after()
        && event.seq() < query.before().orElse(Long.MAX_VALUE) && event.seq() <= 3);
  }

  /** A setup that writes nothing and names a new session. */
  private Function<SessionStore, String> fresh(String base) {
    return store -> nextId(base);
  }

  private Function<SessionStore, String> nothing() {
    return store -> "";
  }

  private String nextId(String base) {
    return base + "-" + counters.merge(base, 1, Integer::sum);
  }
}
