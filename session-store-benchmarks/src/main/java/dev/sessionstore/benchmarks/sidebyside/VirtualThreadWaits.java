package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;

/**
 * Agent runtimes park one waiting read per live conversation: can one store hold {@value #WAITERS} of them on virtual
 * threads, and wake each when its session gets an event? {@value #WAITERS} virtual threads each wait on the PostgreSQL
 * store ({@code events().await}, one session each); once all are parked, {@value #APPENDERS} platform threads
 * append one event to every session through the same store, and each waiter's wake is timed from the end of its
 * session's append to the return of its read. Memory per waiter is the heap in use, after a collection, with all of
 * them parked, less before they started, divided by their number. Pinning: a JFR stream records every
 * {@code jdk.VirtualThreadPinned} event (threshold 0) during the run; the row counts those with a frame of the
 * store's code ({@code dev.sessionstore}) apart from the JDK loading or initializing a class, which pins once per
 * class whoever calls, and lists those apart. The stream starts after one waiting read on a virtual thread was woken
 * by an append ({@link #warmUp}): the JVM links each call site on its first call, and a link that thousands of
 * threads race for at once may pin one of them, once per process, as loading a class does. The baseline: as many virtual threads, each parked on a
 * {@link CountDownLatch} of its own that the appenders count down after a raw append ({@link RawLog}) to the
 * same session of a schema of their own: the floor of a parked virtual thread woken after a commit.
 *
 * <p>Needs Java 21 or later (virtual threads, reached by reflection: the module compiles for Java 17); on an older
 * runtime the measure adds no row and says so.
 */
final class VirtualThreadWaits implements Measure {

  static final String NAME = "waiting reads on virtual threads, each woken by an append";
  /** How many innermost frames of a pinned event the run prints. */
  private static final int TOP_FRAMES = 12;
  private static final int WAITERS = 10_000;
  /** How long the warm-up lets its waiting read park before the append that wakes it. */
  private static final long WARM_UP_PAUSE_MILLIS = 200;
  private static final int APPENDERS = 4;
  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final String PINNED = "jdk.VirtualThreadPinned";

  @Override
  public String name() {
    return NAME;
  }

  /** Whether this runtime has virtual threads. */
  static boolean available() {
    return virtualThreads() != null;
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    if (!available()) {
      System.out.println("  " + NAME + ": skipped, needs Java 21 or later (this is " + Runtime.version() + ")");
      return;
    }
    int waiters = bench.scale() == Scale.SMOKE ? 200 : WAITERS;
    AtomicInteger pinnedInStore = new AtomicInteger();
    AtomicInteger pinnedElsewhere = new AtomicInteger();
    AtomicInteger pinnedLoading = new AtomicInteger();
    List<String> pinnedFrames = new ArrayList<>();
    try (RecordingStream pins = new RecordingStream();
        PgSchema librarySchema = bench.schemaWithTables("virtual");
        PgSchema twin = bench.schemaWithTables("virtual_raw");
        SessionStore store = librarySchema.openStore()) {
      pins.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
      pins.onEvent(PINNED, event -> {
        String frame = storeFrame(event);
        if (frame == null) {
          pinnedElsewhere.incrementAndGet();
        } else if (loadingClasses(event)) {
          pinnedLoading.incrementAndGet();
        } else {
          pinnedInStore.incrementAndGet();
          synchronized (pinnedFrames) {
            pinnedFrames.add(frame + (event.hasField("pinnedReason") ? " (" + event.getString("pinnedReason") + ")" : "")
                + " under " + topFrames(event));
          }
        }
      });
      warmUp(store);
      pins.startAsync();
      RawLog raw = new RawLog(twin, twin.pool());
      Outcome library = waitAndWake(waiters, session -> () -> !store.events()
              .await(session, EventQuery.all(), TIMEOUT).items().isEmpty(),
          (session, i) -> store.events().append(session, Events.reply(i)), null);
      CountDownLatch[] latches = new CountDownLatch[waiters];
      for (int i = 0; i < waiters; i++) {
        latches[i] = new CountDownLatch(1);
      }
      Outcome baseline = waitAndWake(waiters, session -> {
        CountDownLatch latch = latches[index(session)];
        return () -> latch.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      }, (session, i) -> raw.append(session, Events.reply(i)), latches);
      Thread.sleep(200); // the JFR stream flushes about once a second; give the last events time
      pins.close();
      double ratio = baseline.wakes().p50() / library.wakes().p50();
      boolean met = pinnedInStore.get() == 0 && library.woken() == waiters;
      results.add(new Row(Numbers.count(waiters) + " " + NAME, library.cell(waiters)
          + " · pinned by the store's code: " + pinnedInStore.get() + " (the JDK loading or initializing a class: "
          + pinnedLoading.get() + "; elsewhere: " + pinnedElsewhere.get() + ")",
          baseline.cell(waiters), Numbers.ratio(ratio), "all woken, 0 pinned in the store", met));
      if (!pinnedFrames.isEmpty()) {
        System.out.println("  pinned in the store's code at: " + pinnedFrames.subList(0, Math.min(5,
            pinnedFrames.size())));
      }
      results.baseline(Numbers.count(waiters) + " " + NAME, "as many virtual threads, each parked on a "
          + "`CountDownLatch` of its own, counted down right after a raw auto-committed append to its session (a "
          + "schema of its own): a parked virtual thread woken after a commit, with no store in between. Memory per "
          + "waiter: heap in use after a collection with all parked, less before, per waiter. Pinning: JFR "
          + "`jdk.VirtualThreadPinned` events at threshold 0 during the run, on " + Runtime.version() + ".");
    }
  }

  /**
   * Runs the store's waiting path end to end before the measured run: a waiting read on a virtual thread, woken by an
   * append, twice (the first append may come before the read parks), so the JVM has linked every call site on it.
   */
  private static void warmUp(SessionStore store) throws Exception {
    ExecutorService threads = virtualThreads();
    try {
      for (int round = 0; round < 2; round++) {
        String session = "warm-up-" + round;
        Future<?> waiting = threads.submit(() -> store.events().await(session, EventQuery.all(), TIMEOUT));
        Thread.sleep(WARM_UP_PAUSE_MILLIS);
        store.events().append(session, Events.reply(round));
        waiting.get();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /** One side's run: how many woke with their event, the wake times, the heap per parked waiter. */
  private record Outcome(int woken, Samples wakes, double bytesPerWaiter) {
    String cell(int waiters) {
      return "wake p50 " + Numbers.millis(wakes.p50()) + " · p99 " + Numbers.millis(wakes.p99()) + " · "
          + Numbers.plain(bytesPerWaiter / 1024) + " KiB per waiter · " + Numbers.count(woken) + " of "
          + Numbers.count(waiters) + " woken";
    }
  }

  /** A waiter's wait for its session: true when it returned with its event. */
  @FunctionalInterface
  private interface Wait {
    boolean run() throws Exception;
  }

  @FunctionalInterface
  private interface Waits {
    Wait of(String session);
  }

  @FunctionalInterface
  private interface Append {
    void run(String session, int i) throws Exception;
  }

  private static Outcome waitAndWake(int waiters, Waits waits, Append append, CountDownLatch[] latches)
      throws Exception {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long before = heapAfterCollection(memory);
    AtomicLongArray appended = new AtomicLongArray(waiters);
    AtomicLongArray returned = new AtomicLongArray(waiters);
    AtomicInteger woken = new AtomicInteger();
    List<Future<?>> parked = new ArrayList<>(waiters);
    ExecutorService threads = virtualThreads();
    try {
      for (int i = 0; i < waiters; i++) {
        int index = i;
        Wait wait = waits.of(session(i));
        parked.add(threads.submit(() -> {
          if (wait.run()) {
            returned.set(index, System.nanoTime());
            woken.incrementAndGet();
          }
          return null;
        }));
      }
      Thread.sleep(waiters / 2); // every waiter has read once and parked (0.5 ms each, reads in parallel)
      double bytesPerWaiter = (double) (heapAfterCollection(memory) - before) / waiters;
      ExecutorService appenders = Executors.newFixedThreadPool(APPENDERS);
      try {
        List<Future<?>> appends = new ArrayList<>();
        for (int a = 0; a < APPENDERS; a++) {
          int first = a;
          appends.add(appenders.submit(() -> {
            for (int i = first; i < waiters; i += APPENDERS) {
              append.run(session(i), i);
              appended.set(i, System.nanoTime());
              if (latches != null) {
                latches[i].countDown();
              }
            }
            return null;
          }));
        }
        for (Future<?> each : appends) {
          each.get();
        }
      } finally {
        appenders.shutdown();
      }
      for (Future<?> each : parked) {
        each.get();
      }
      Samples wakes = new Samples();
      for (int i = 0; i < waiters; i++) {
        if (returned.get(i) != 0) {
          wakes.add(Math.max(0, returned.get(i) - appended.get(i)));
        }
      }
      return new Outcome(woken.get(), wakes, bytesPerWaiter);
    } finally {
      threads.shutdownNow();
    }
  }

  private static String session(int i) {
    return "waiter-" + i;
  }

  private static int index(String session) {
    return Integer.parseInt(session.substring("waiter-".length()));
  }

  private static long heapAfterCollection(MemoryMXBean memory) throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
    }
    return memory.getHeapMemoryUsage().getUsed();
  }

  /**
   * Whether a pinned event is the JDK loading or initializing a class (once per class, whoever calls): its reason
   * says so (Java 24+), or a class loader is at the top of its stack.
   */
  private static boolean loadingClasses(RecordedEvent event) {
    String reason = event.hasField("pinnedReason") ? event.getString("pinnedReason") : null;
    if (reason != null && (reason.contains("initialization") || reason.contains("<clinit>"))) {
      return true;
    }
    return event.getStackTrace() != null && event.getStackTrace().getFrames().stream().limit(4)
        .anyMatch(frame -> frame.getMethod().getName().startsWith("loadClass"));
  }

  /** The innermost frames of a pinned event's stack, where it parked: what pinned it. */
  private static List<String> topFrames(RecordedEvent event) {
    return event.getStackTrace() == null ? List.of() : event.getStackTrace().getFrames().stream().limit(TOP_FRAMES)
        .map(frame -> frame.getMethod().getType().getName() + "." + frame.getMethod().getName() + ":"
            + frame.getLineNumber())
        .toList();
  }

  /** The first frame of the store's code in a pinned event's stack, or {@code null}. */
  private static String storeFrame(RecordedEvent event) {
    if (event.getStackTrace() == null) {
      return null;
    }
    for (RecordedFrame frame : event.getStackTrace().getFrames()) {
      String type = frame.getMethod().getType().getName();
      if (type.startsWith("dev.sessionstore.") && !type.startsWith("dev.sessionstore.benchmarks.")) {
        return type + "." + frame.getMethod().getName() + ":" + frame.getLineNumber();
      }
    }
    return null;
  }

  /** {@code Executors.newVirtualThreadPerTaskExecutor()} where the runtime has it (Java 21+), else {@code null}. */
  private static ExecutorService virtualThreads() {
    try {
      return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }
}
