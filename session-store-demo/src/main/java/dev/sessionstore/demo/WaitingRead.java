package dev.sessionstore.demo;

import dev.sessionstore.EventLog;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * A long-poll as an agent's UI would do it: a reader thread waits in {@link EventLog#await} for events after the
 * session's last seq while this thread appends one after a delay. The reader wakes as soon as the append lands,
 * not when its timeout runs out.
 */
final class WaitingRead {

  /** What the reader got and how long it waited for it. */
  record WakeUp(long afterSeq, EventPage page, Duration waited) {
  }

  private final EventLog events;
  private final String sessionId;

  WaitingRead(EventLog events, String sessionId) {
    this.events = events;
    this.sessionId = sessionId;
  }

  /**
   * Starts a reader waiting up to {@code timeout} for events after the last seq, appends {@code event} after
   * {@code appendDelay}, and returns once the reader has woken.
   */
  WakeUp appendWhileWaiting(NewEvent event, Duration appendDelay, Duration timeout) throws InterruptedException {
    long afterSeq = events.lastSeq(sessionId);
    CountDownLatch readerStarted = new CountDownLatch(1);
    FutureTask<WakeUp> reader = new FutureTask<>(() -> {
      readerStarted.countDown();
      long start = System.nanoTime();
      EventPage page = events.await(sessionId, EventQuery.all().after(afterSeq), timeout);
      return new WakeUp(afterSeq, page, Duration.ofNanos(System.nanoTime() - start));
    });
    Thread thread = new Thread(reader, "waiting-reader");
    thread.start();
    readerStarted.await();
    Thread.sleep(appendDelay.toMillis());
    events.append(sessionId, event);
    try {
      return reader.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("the waiting reader failed", e.getCause());
    }
  }
}
