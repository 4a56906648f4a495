package dev.sessionstore.reliability;

import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.StoreFailureException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A writer that appends numbered batches of events to one session until told to stop, and retries a failed batch
 * with the same ids until it is acknowledged, as an agent runtime would. After each failure it checks the reported
 * outcome through a second store: a {@link StoreFailureException} must have stored none of the batch, an
 * {@link OutcomeUnknownException} all or none of it. Acknowledgements and untrue outcomes go to the {@link Ledger}.
 */
final class BatchWriter implements Runnable {

  private static final int MAX_ATTEMPTS = 1_000;

  private final SessionStore store;
  private final SessionStore checker;
  private final String sessionId;
  private final String name;
  private final int batchSize;
  private final Ledger ledger;
  private final BooleanSupplier running;
  private final AtomicLong batches = new AtomicLong();
  private final AtomicLong reportedFailed = new AtomicLong();
  private final AtomicLong reportedUnknown = new AtomicLong();

  BatchWriter(SessionStore store, SessionStore checker, String sessionId, String name, int batchSize, Ledger ledger,
      BooleanSupplier running) {
    this.store = store;
    this.checker = checker;
    this.sessionId = sessionId;
    this.name = name;
    this.batchSize = batchSize;
    this.ledger = ledger;
    this.running = running;
  }

  /** The id prefix shared by the events of batch {@code number}: {@code <writer>-b<number>-}. */
  String batchKey(long number) {
    return name + "-b" + number + "-";
  }

  @Override
  public void run() {
    for (long number = 0; running.getAsBoolean(); number++) {
      List<NewEvent> batch = new ArrayList<>();
      for (int i = 0; i < batchSize; i++) {
        batch.add(NewEvent.of("step", Json.from(Map.of("writer", name, "batch", number, "index", i)))
            .withId(batchKey(number) + i));
      }
      appendUntilAcknowledged(batch);
      batches.incrementAndGet();
    }
  }

  long batches() {
    return batches.get();
  }

  long reportedFailed() {
    return reportedFailed.get();
  }

  long reportedUnknown() {
    return reportedUnknown.get();
  }

  private void appendUntilAcknowledged(List<NewEvent> batch) {
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      try {
        List<Event> stored = store.events().appendAll(sessionId, batch);
        for (int i = 1; i < stored.size(); i++) {
          if (stored.get(i).seq() != stored.get(0).seq() + i) {
            ledger.untrue(sessionId + "/" + batch.get(0).id() + " batch acknowledged at scattered seqs");
          }
        }
        ledger.acknowledge(sessionId, stored);
        return;
      } catch (OutcomeUnknownException e) {
        reportedUnknown.incrementAndGet();
        long present = presentCount(batch);
        if (present != 0 && present != batch.size()) {
          ledger.untrue(batch.get(0).id() + ": outcome unknown, and " + present + " of " + batch.size() + " stored");
        }
      } catch (StoreFailureException e) {
        reportedFailed.incrementAndGet();
        long present = presentCount(batch);
        if (present != 0) {
          ledger.untrue(batch.get(0).id() + ": reported failed (" + e.getMessage() + "), yet " + present + " of "
              + batch.size() + " stored");
        }
      }
    }
    throw new AssertionError(name + ": a batch was not acknowledged after " + MAX_ATTEMPTS + " attempts");
  }

  /** How many of the batch's events the checking store finds, retried until the checking store answers. */
  private long presentCount(List<NewEvent> batch) {
    for (int attempt = 1; ; attempt++) {
      try {
        return batch.stream().filter(event -> checker.events().find(sessionId, event.id()).isPresent()).count();
      } catch (StoreFailureException e) {
        if (attempt == MAX_ATTEMPTS) {
          throw e;
        }
      }
    }
  }
}
