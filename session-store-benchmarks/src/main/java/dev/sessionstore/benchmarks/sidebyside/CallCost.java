package dev.sessionstore.benchmarks.sidebyside;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * What each call of one side cost the calling thread: its CPU time and the bytes it allocated, read from the JVM's
 * thread bean around the call (outside the span {@link Trial} times, so the timing is not changed by it). Work of
 * other threads (the JIT, the pool's housekeeping, the store's notifier) and of the database is not in it: this is
 * the client-side cost of the call, the part a library can cut. Not thread-safe: one side, one thread.
 */
final class CallCost {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private long[] cpuNanos = new long[1_024];
  private long[] bytes = new long[1_024];
  private int count;

  /**
   * A trial that makes its input with {@code prepare}, untimed, times {@code action} on it and records the action's
   * CPU time and allocation here.
   */
  <T> Trial timed(Trial.Input<T> prepare, Trial.Use<T> action) {
    return i -> {
      T input = prepare.make(i);
      long cpu = THREADS.getCurrentThreadCpuTime();
      long allocated = THREADS.getCurrentThreadAllocatedBytes();
      long start = System.nanoTime();
      action.run(input);
      long elapsed = System.nanoTime() - start;
      record(THREADS.getCurrentThreadCpuTime() - cpu, THREADS.getCurrentThreadAllocatedBytes() - allocated);
      return elapsed;
    };
  }

  /** Mean CPU microseconds per call over the last {@code calls} calls recorded. */
  double cpuMicros(int calls) {
    return mean(cpuNanos, calls) / 1_000;
  }

  /** Mean bytes allocated per call over the last {@code calls} calls recorded. */
  double bytes(int calls) {
    return mean(bytes, calls);
  }

  /** {@code CPU 41.2 µs · 3,120 B per call} over the last {@code calls} calls. */
  String describe(int calls) {
    return "CPU " + Numbers.plain(cpuMicros(calls)) + " µs · " + Numbers.count(Math.round(bytes(calls)))
        + " B per call";
  }

  private void record(long cpu, long allocated) {
    if (count == cpuNanos.length) {
      cpuNanos = Arrays.copyOf(cpuNanos, count * 2);
      bytes = Arrays.copyOf(bytes, count * 2);
    }
    cpuNanos[count] = cpu;
    bytes[count] = allocated;
    count++;
  }

  private double mean(long[] values, int calls) {
    int from = Math.max(0, count - calls);
    long sum = 0;
    for (int i = from; i < count; i++) {
      sum += values[i];
    }
    return count == from ? Double.NaN : (double) sum / (count - from);
  }
}
