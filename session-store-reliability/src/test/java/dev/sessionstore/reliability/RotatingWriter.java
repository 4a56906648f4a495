package dev.sessionstore.reliability;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A writer that appends numbered batches of events to its sessions in turn until told to stop, for faults during
 * which the store cannot be asked what it stored (a lost quorum): a batch that failed is not retried but set aside
 * with the outcome the store reported, and checked once the cluster is whole again ({@link #verifyOutcomes}): a
 * {@link StoreFailureException} (nothing written) must have stored none of its events, an
 * {@link OutcomeUnknownException} all or none of them, at consecutive seqs. Acknowledgements go to the {@link Ledger};
 * each failed call's latency is kept, with when it ended, to tell how fast the store fails.
 */
final class RotatingWriter implements Runnable {

  private static final long PAUSE_AFTER_FAILURE_MILLIS = 50;

  private final SessionStore store;
  private final List<String> sessionIds;
  private final String name;
  private final int batchSize;
  private final Ledger ledger;
  private final BooleanSupplier running;
  private final List<SetAside> setAside = Collections.synchronizedList(new ArrayList<>());
  private final List<long[]> failures = Collections.synchronizedList(new ArrayList<>());

  RotatingWriter(SessionStore store, List<String> sessionIds, String name, int batchSize, Ledger ledger,
      BooleanSupplier running) {
    this.store = store;
    this.sessionIds = List.copyOf(sessionIds);
    this.name = name;
    this.batchSize = batchSize;
    this.ledger = ledger;
    this.running = running;
  }

  @Override
  public void run() {
    for (long number = 0; running.getAsBoolean(); number++) {
      String sessionId = sessionIds.get((int) (number % sessionIds.size()));
      List<NewEvent> batch = new ArrayList<>();
      for (int i = 0; i < batchSize; i++) {
        batch.add(NewEvent.of("step", Json.from(Map.of("writer", name, "batch", number, "index", i)))
            .withId(name + "-b" + number + "-" + i));
      }
      long start = System.nanoTime();
      try {
        List<Event> stored = store.events().appendAll(sessionId, batch);
        for (int i = 1; i < stored.size(); i++) {
          if (stored.get(i).seq() != stored.get(0).seq() + i) {
            ledger.untrue(sessionId + "/" + batch.get(0).id() + " batch acknowledged at scattered seqs");
          }
        }
        ledger.acknowledge(sessionId, stored);
      } catch (StoreFailureException e) {
        long end = System.nanoTime();
        failures.add(new long[] {end - start, end});
        setAside.add(new SetAside(sessionId, batch.stream().map(NewEvent::id).toList(),
            e instanceof OutcomeUnknownException, e.toString()));
        pause();
      }
    }
  }

  /** The failed calls: {latency nanos, {@link System#nanoTime()} at the failure}. */
  List<long[]> failures() {
    synchronized (failures) {
      return List.copyOf(failures);
    }
  }

  /** How many failed calls reported an unknown outcome. */
  long unknown() {
    synchronized (setAside) {
      return setAside.stream().filter(SetAside::unknown).count();
    }
  }

  /** How many failed calls reported that nothing was written. */
  long failed() {
    synchronized (setAside) {
      return setAside.stream().filter(batch -> !batch.unknown()).count();
    }
  }

  /**
   * Checks every set-aside batch against what {@code reader} finds (the cluster whole again) and records each untrue
   * outcome in the ledger; returns how many unknown outcomes turned out written.
   */
  long verifyOutcomes(SessionStore reader) {
    Map<String, Map<String, Long>> storedBySession = new HashMap<>();
    long written = 0;
    synchronized (setAside) {
      for (SetAside batch : setAside) {
        Map<String, Long> stored = storedBySession.computeIfAbsent(batch.sessionId(), id -> {
          Map<String, Long> seqs = new HashMap<>();
          reader.events().read(id, EventQuery.all()).items().forEach(event -> seqs.put(event.id(), event.seq()));
          return seqs;
        });
        List<Long> seqs = batch.ids().stream().map(stored::get).filter(seq -> seq != null).toList();
        if (!batch.unknown() && !seqs.isEmpty()) {
          ledger.untrue(batch.ids().get(0) + ": reported failed (" + batch.failure() + "), yet " + seqs.size()
              + " of " + batch.ids().size() + " stored");
        } else if (!seqs.isEmpty() && seqs.size() != batch.ids().size()) {
          ledger.untrue(batch.ids().get(0) + ": outcome unknown, and " + seqs.size() + " of " + batch.ids().size()
              + " stored: a partial batch");
        } else if (!seqs.isEmpty()) {
          written++;
          for (int i = 1; i < seqs.size(); i++) {
            if (seqs.get(i) != seqs.get(0) + i) {
              ledger.untrue(batch.ids().get(0) + ": outcome unknown, stored at scattered seqs " + seqs);
            }
          }
        }
      }
    }
    return written;
  }

  private static void pause() {
    try {
      TimeUnit.MILLISECONDS.sleep(PAUSE_AFTER_FAILURE_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A batch that failed, with the outcome the store reported. */
  private record SetAside(String sessionId, List<String> ids, boolean unknown, String failure) {
  }
}
