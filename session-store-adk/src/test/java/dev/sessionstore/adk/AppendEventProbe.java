package dev.sessionstore.adk;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.InMemorySessionService;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import com.sun.management.ThreadMXBean;
import dev.sessionstore.memory.InMemorySessionStore;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What {@link SessionStoreSessionService#appendEvent} on the in-memory store costs next to ADK's own
 * {@link InMemorySessionService} under concurrency (issue 37): a round is 16 threads each appending 20 events to its
 * own new session (a user per thread), each event with model text, a session key and a {@code user:} key in its state
 * delta; a round's wall time is measured for each service, the two in random order within every round, after warm-up
 * rounds. Prints p50 and p99 of the round times and the ratio ours-p50 / ADK-p50. Not a test (nothing is asserted on
 * time); run it by hand:
 * <pre>{@code
 * java -cp session-store-adk/target/test-classes:session-store-adk/target/classes:<test classpath> \
 *     dev.sessionstore.adk.AppendEventProbe [warm-up rounds] [measured rounds] [caller|io]
 * }</pre>
 * The last argument is where our service runs the store calls: {@code caller}, the default (no scheduler: the
 * subscribing thread), or {@code io} ({@code Schedulers.io()}, a thread hand-off per call).
 */
final class AppendEventProbe {

  private static final int THREADS = 16;
  private static final int EVENTS = 20;

  private AppendEventProbe() {
  }

  public static void main(String[] args) throws Exception {
    int warmUp = args.length > 0 ? Integer.parseInt(args[0]) : 50;
    int measured = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    boolean io = args.length > 2 && args[2].equals("io");
    SessionStoreSessionService.Builder builder = SessionStoreSessionService.builder(
        InMemorySessionStore.builder().build());
    BaseSessionService ours = (io ? builder.scheduler(Schedulers.io()) : builder).build();
    BaseSessionService adk = new InMemorySessionService();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    Random order = new Random(37);
    long[][] oursCost = new long[3][measured];
    long[][] adkCost = new long[3][measured];
    try {
      for (int round = 0; round < warmUp + measured; round++) {
        boolean oursFirst = order.nextBoolean();
        long[] first = round(oursFirst ? ours : adk, pool, round);
        long[] second = round(oursFirst ? adk : ours, pool, round);
        for (int cost = 0; round >= warmUp && cost < 3; cost++) {
          oursCost[cost][round - warmUp] = (oursFirst ? first : second)[cost];
          adkCost[cost][round - warmUp] = (oursFirst ? second : first)[cost];
        }
      }
    } finally {
      pool.shutdown();
    }
    for (int cost = 0; cost < 3; cost++) {
      Arrays.sort(oursCost[cost]);
      Arrays.sort(adkCost[cost]);
    }
    long[] oursNanos = oursCost[0];
    long[] adkNanos = adkCost[0];
    System.out.printf("%d threads x %d appendEvent, %d rounds after %d warm-up, our scheduler %s, round wall time:%n",
        THREADS, EVENTS, measured, warmUp, io ? "io" : "none (the caller's thread, the default)");
    System.out.printf("  session-store (in-memory store): p50 %.3f ms  p99 %.3f ms%n", ms(oursNanos, 0.50),
        ms(oursNanos, 0.99));
    System.out.printf("  ADK InMemorySessionService:      p50 %.3f ms  p99 %.3f ms%n", ms(adkNanos, 0.50),
        ms(adkNanos, 0.99));
    System.out.printf("  ratio ours-p50 / ADK-p50: %.2fx%n", ms(oursNanos, 0.50) / ms(adkNanos, 0.50));
    int appends = THREADS * EVENTS;
    System.out.printf("  per append, p50 of rounds: session-store CPU %.1f us, allocated %.1f KB; ADK CPU %.1f us,"
        + " allocated %.1f KB (CPU ratio %.2fx)%n", ms(oursCost[1], 0.5) * 1e3 / appends,
        oursCost[2][measured / 2] / 1024.0 / appends, ms(adkCost[1], 0.5) * 1e3 / appends,
        adkCost[2][measured / 2] / 1024.0 / appends, ms(oursCost[1], 0.5) / ms(adkCost[1], 0.5));
  }

  /**
   * Creates a session per thread (not timed), then times the threads' appends, from the first start to the end:
   * the wall time, and the CPU time and bytes allocated of all of the JVM's Java threads meanwhile.
   */
  private static long[] round(BaseSessionService service, ExecutorService pool, int round) throws Exception {
    List<Session> sessions = new ArrayList<>();
    for (int thread = 0; thread < THREADS; thread++) {
      String id = "s-" + round + "-" + thread;
      sessions.add(service.createSession("app", "user-" + thread, Map.of(), id).blockingGet());
    }
    List<Future<?>> done = new ArrayList<>();
    long[] before = threadCosts();
    long start = System.nanoTime();
    for (Session session : sessions) {
      done.add(pool.submit(() -> {
        for (int i = 0; i < EVENTS; i++) {
          ConcurrentHashMap<String, Object> delta = new ConcurrentHashMap<>();
          delta.put("turn", i);
          delta.put("user:last_city", "Paris " + i);
          Event event = Event.builder().id(Event.generateEventId()).invocationId("inv-" + i).author("agent")
              .content(Content.fromParts(Part.fromText("The weather in Paris is sunny, turn " + i)))
              .actions(EventActions.builder().stateDelta(delta).build()).build();
          service.appendEvent(session, event).blockingGet();
        }
      }));
    }
    for (Future<?> future : done) {
      future.get();
    }
    long wall = System.nanoTime() - start;
    long[] after = threadCosts();
    return new long[] {wall, after[0] - before[0], after[1] - before[1]};
  }

  /** The CPU nanoseconds and allocated bytes of the JVM's live Java threads so far, summed. */
  private static long[] threadCosts() {
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long[] ids = threads.getAllThreadIds();
    long cpu = 0;
    for (long nanos : threads.getThreadCpuTime(ids)) {
      cpu += Math.max(0, nanos);
    }
    long allocated = 0;
    for (long bytes : threads.getThreadAllocatedBytes(ids)) {
      allocated += Math.max(0, bytes);
    }
    return new long[] {cpu, allocated};
  }

  private static double ms(long[] sorted, double quantile) {
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] / 1e6;
  }
}
