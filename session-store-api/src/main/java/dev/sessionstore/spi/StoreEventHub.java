package dev.sessionstore.spi;

import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The events of one store, for its adapter to report and listeners to receive: the adapter calls the
 * {@link StoreEvents} methods of its hub where the events happen and {@link #readParked()}/{@link #readUnparked()}
 * around each sleep of a waiting read, and answers {@link StoreEventSource} with the hub's. Shared by the adapters,
 * so that each states only where its events happen.
 *
 * <p>Each event goes to every subscribed listener in subscription order. A listener that throws a
 * {@link RuntimeException} does not stop the others nor the store operation: the exception is dropped, and the first
 * one of each subscription is handed to the adapter's {@code firstFailure} to log (this module logs nothing itself).
 * With no listener an event costs a look at an empty list. Thread-safe.
 */
public final class StoreEventHub implements StoreEvents, StoreEventSource {

  private final Consumer<RuntimeException> firstFailure;
  private final CopyOnWriteArrayList<Listening> listeners = new CopyOnWriteArrayList<>();
  private final AtomicInteger parked = new AtomicInteger();

  /**
   * A hub with no listener that hands the first exception of each listener to {@code firstFailure} (which logs it;
   * an exception it throws itself is dropped).
   *
   * @throws dev.sessionstore.InvalidArgumentException naming {@code firstFailure} if it is null
   */
  public StoreEventHub(Consumer<RuntimeException> firstFailure) {
    this.firstFailure = Arguments.requireNonNull("firstFailure", firstFailure);
  }

  /** Delivers the events from now on to {@code listener}, until the subscription or {@link #close()} ends it. */
  @Override
  public StoreEventSubscription subscribe(StoreEvents listener) {
    Listening listening = new Listening(Arguments.requireNonNull("listener", listener));
    listeners.add(listening);
    return () -> listeners.remove(listening);
  }

  /** The reads between {@link #readParked()} and {@link #readUnparked()} now. */
  @Override
  public int parkedReads() {
    return parked.get();
  }

  /** A waiting read starts to sleep: counted in {@link #parkedReads()} until its {@link #readUnparked()}. */
  public void readParked() {
    parked.incrementAndGet();
  }

  /** A waiting read that called {@link #readParked()} woke up (or gave up); call once per {@code readParked()}. */
  public void readUnparked() {
    parked.decrementAndGet();
  }

  /** Reports a retry to every listener. */
  @Override
  public void retried(RetryCause cause) {
    deliver(listener -> listener.retried(cause));
  }

  /** Reports a settled outcome to every listener. */
  @Override
  public void outcomeSettled(SettledOutcome outcome) {
    deliver(listener -> listener.outcomeSettled(outcome));
  }

  /** Reports a fired deadline to every listener. */
  @Override
  public void deadlineFired() {
    deliver(StoreEvents::deadlineFired);
  }

  /** Reports a woken read to every listener; a negative latency (a clock that went back) is reported as zero. */
  @Override
  public void readWoken(Duration sinceCommit) {
    Duration latency = sinceCommit.isNegative() ? Duration.ZERO : sinceCommit;
    deliver(listener -> listener.readWoken(latency));
  }

  private void deliver(Consumer<StoreEvents> event) {
    for (Listening listening : listeners) {
      try {
        event.accept(listening.listener);
      } catch (RuntimeException e) {
        listening.failed(e);
      }
    }
  }

  /** Ends every subscription: the store closed. Later subscriptions still receive events, if any come. */
  public void close() {
    listeners.clear();
  }

  /** One subscription: its listener, and whether its first failure was handed on. */
  private final class Listening {

    private final StoreEvents listener;
    private final AtomicBoolean reported = new AtomicBoolean();

    Listening(StoreEvents listener) {
      this.listener = listener;
    }

    void failed(RuntimeException e) {
      if (reported.compareAndSet(false, true)) {
        try {
          firstFailure.accept(e);
        } catch (RuntimeException ignored) {
          // the failure handler's own failure must not reach the store operation either
        }
      }
    }
  }
}
