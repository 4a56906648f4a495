package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import dev.sessionstore.benchmarks.StoreKind;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyProvider;
import dev.sessionstore.micrometer.ObservedSessionStore;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.util.Arrays;

/**
 * What do the operations decorators cost? Each row puts a decorated store (the library side) against the same store
 * plain (the baseline), interleaved: an observed store (observations to a {@link SimpleMeterRegistry} through
 * Micrometer's meter handler: a timer and a long-task timer per operation) appending in memory and on PostgreSQL,
 * and an encrypting store (AES-256-GCM, per-session HKDF keys) appending and reading on PostgreSQL. On PostgreSQL
 * the decorator wraps the very store instance the baseline calls (one schema, one pool, one table; a session per
 * side), so the rows differ by the decorator alone, not by two pools or two tables that age apart. In memory each
 * call times a block of {@value InMemoryAppend#BLOCK} appends, as {@link InMemoryAppend} does.
 */
final class OperationsOverhead implements Measure {

  static final String OBSERVED_MEMORY = "observed vs plain append, in memory";
  static final String OBSERVED_POSTGRES = "observed vs plain append, PostgreSQL";
  static final String ENCRYPTED_APPEND = "encrypted vs plain append, PostgreSQL";
  static final String ENCRYPTED_READ = "encrypted vs plain read of 50 events, PostgreSQL";
  private static final double POSTGRES_TARGET = 0.95;
  private static final double MEMORY_TARGET = 0.5;
  private static final double ENCRYPTED_TARGET = 0.9;
  private static final int READ_EVENTS = 50;
  private static final int POSTGRES_CALLS = 3_000;
  private static final String DECORATED_SESSION = "decorated";
  private static final String PLAIN_SESSION = "plain";

  @Override
  public String name() {
    return "operations decorators: observed and encrypted vs plain";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    observedInMemory(bench, results);
    try (PgSchema schema = bench.schemaWithTables("ops_observed");
        SessionStore store = schema.openStore();
        SessionStore observed = observe(store, "postgresql")) {
      Sides sides = Interleave.pairs(bench.scale().warmup(500), bench.scale().calls(POSTGRES_CALLS),
          Trial.timed(Events::reply, event -> observed.events().append(DECORATED_SESSION, event)),
          Trial.timed(Events::reply, event -> store.events().append(PLAIN_SESSION, event)));
      latencyRow(results, OBSERVED_POSTGRES, sides, POSTGRES_TARGET);
    }
    try (PgSchema schema = bench.schemaWithTables("ops_encrypted");
        SessionStore store = schema.openStore();
        SessionStore encrypted = encrypt(store)) {
      Sides appends = Interleave.pairs(bench.scale().warmup(500), bench.scale().calls(POSTGRES_CALLS),
          Trial.timed(Events::reply, event -> encrypted.events().append(DECORATED_SESSION, event)),
          Trial.timed(Events::reply, event -> store.events().append(PLAIN_SESSION, event)));
      latencyRow(results, ENCRYPTED_APPEND, appends, ENCRYPTED_TARGET);
      EventQuery last = EventQuery.all().last(READ_EVENTS);
      Sides reads = Interleave.pairs(bench.scale().warmup(500), bench.scale().calls(POSTGRES_CALLS),
          Trial.timed(i -> encrypted.events().read(DECORATED_SESSION, last)),
          Trial.timed(i -> store.events().read(PLAIN_SESSION, last)));
      latencyRow(results, ENCRYPTED_READ, reads, ENCRYPTED_TARGET);
    }
    results.baseline(OBSERVED_MEMORY, "the same in-memory store, not observed; the library side is it wrapped by "
        + "`ObservedSessionStore` recording to a `SimpleMeterRegistry` through `DefaultMeterObservationHandler`. "
        + "Percentiles are of the mean append in blocks of " + InMemoryAppend.BLOCK + ".");
    results.baseline(OBSERVED_POSTGRES, "the same PostgreSQL store instance, not observed; the library side is "
        + "that instance wrapped by `ObservedSessionStore` (meters as above). Both sides share the schema, the pool "
        + "and the table, each appending to a session of its own, so the two differ by the decorator alone. One "
        + "event per append, own commit.");
    results.baseline(ENCRYPTED_APPEND, "the same PostgreSQL store instance in clear; the library side is that "
        + "instance wrapped by `EncryptingSessionStore` (AES-256-GCM under a per-session HKDF key, payload sealed "
        + "before the adapter); schema, pool and table shared, a session per side.");
    results.baseline(ENCRYPTED_READ, "the same PostgreSQL store instance in clear, reading the last " + READ_EVENTS
        + " events of its session (each side reads the session it appended to above); the library side opens each "
        + "payload.");
  }

  private static void observedInMemory(Bench bench, Results results) throws Exception {
    try (SessionStore observed = observe(StoreKind.inMemory(), "memory");
        SessionStore store = StoreKind.inMemory()) {
      Sides sides = Interleave.pairs(bench.scale().warmup(20_000), bench.scale().calls(20_000),
          i -> block(i, observed), i -> block(i, store));
      double ratio = sides.throughputRatio(1);
      results.add(new Row(OBSERVED_MEMORY, cell(sides.library()), cell(sides.baseline()), Numbers.ratio(ratio),
          "≥ " + Numbers.round(MEMORY_TARGET) + "×", ratio >= MEMORY_TARGET));
    }
  }

  /** Appends block {@code i} to a session of its own (deleting the previous one); the mean nanoseconds of one. */
  private static long block(int i, SessionStore store) {
    long first = (long) i * InMemoryAppend.BLOCK;
    String session = "s-" + first / InMemoryAppend.EVENTS_PER_SESSION;
    if (first % InMemoryAppend.EVENTS_PER_SESSION == 0 && first > 0) {
      store.sessions().delete("s-" + (first / InMemoryAppend.EVENTS_PER_SESSION - 1));
    }
    long start = System.nanoTime();
    for (int k = 0; k < InMemoryAppend.BLOCK; k++) {
      store.events().append(session, Events.reply(first + k));
    }
    return (System.nanoTime() - start) / InMemoryAppend.BLOCK;
  }

  private static void latencyRow(Results results, String name, Sides sides, double target) {
    double ratio = sides.latencyRatio();
    results.add(new Row(name, Numbers.percentiles(sides.library()), Numbers.percentiles(sides.baseline()),
        Numbers.ratio(ratio), "≥ " + Numbers.round(target) + "×", ratio >= target));
  }

  private static String cell(Samples samples) {
    return Numbers.rate(samples.perSecond(1), "appends") + " · p50 " + Numbers.micros(samples.p50()) + " · p99 "
        + Numbers.micros(samples.p99());
  }

  private static SessionStore observe(SessionStore store, String adapter) {
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
    return ObservedSessionStore.builder(store).registry(registry).adapter(adapter).build();
  }

  private static SessionStore encrypt(SessionStore store) {
    byte[] key = new byte[32];
    Arrays.fill(key, (byte) 42);
    return EncryptingSessionStore.builder(store).keys(KeyProvider.of("bench", key)).build();
  }
}
