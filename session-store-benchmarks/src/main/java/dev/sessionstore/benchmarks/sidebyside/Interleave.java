package dev.sessionstore.benchmarks.sidebyside;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the library side and the baseline side of a measure interleaved, so that whatever else the machine does hits
 * both alike: one call at a time ({@link #pairs}) or in timed phases of several writers ({@link #phases}), the side
 * that goes first drawn at random each time; or variants of one side in rounds ({@link #rounds}). Warm-up calls and
 * phases run the same way and are not recorded. Call indexes count on across warm-up and measurement, per side, so a
 * trial can derive unique ids from them.
 */
final class Interleave {

  private Interleave() {
  }

  /**
   * {@code warmup} then {@code pairs} rounds; each round calls both trials once, in random order. A failing call
   * ends the measure.
   */
  static Sides pairs(int warmup, int pairs, Trial library, Trial baseline) throws Exception {
    Samples librarySamples = new Samples();
    Samples baselineSamples = new Samples();
    for (int i = 0; i < warmup + pairs; i++) {
      boolean libraryFirst = ThreadLocalRandom.current().nextBoolean();
      long first = (libraryFirst ? library : baseline).run(i);
      long second = (libraryFirst ? baseline : library).run(i);
      if (i >= warmup) {
        librarySamples.add(libraryFirst ? first : second);
        baselineSamples.add(libraryFirst ? second : first);
      }
    }
    return new Sides(librarySamples, baselineSamples);
  }

  /**
   * {@code warmup} then {@code rounds} rounds; each round calls every trial once, in a random order: so variants of
   * one side (the same operation on sessions of different lengths, say) are compared under the same conditions, as
   * {@link #pairs} compares the two sides. Returns the samples of each trial, in the order of {@code trials}. A
   * failing call ends the measure.
   */
  static List<Samples> rounds(int warmup, int rounds, List<Trial> trials) throws Exception {
    List<Samples> samples = new ArrayList<>(trials.size());
    List<Integer> order = new ArrayList<>(trials.size());
    for (int t = 0; t < trials.size(); t++) {
      samples.add(new Samples());
      order.add(t);
    }
    for (int i = 0; i < warmup + rounds; i++) {
      Collections.shuffle(order, ThreadLocalRandom.current());
      for (int t : order) {
        long elapsed = trials.get(t).run(i);
        if (i >= warmup) {
          samples.get(t).add(elapsed);
        }
      }
    }
    return samples;
  }

  /**
   * {@code warmup} then {@code rounds} rounds; each round runs a phase of each side, in random order: {@code writers}
   * threads calling the side's trial as fast as it returns for {@code phase}. Failed calls are counted, not thrown.
   */
  static Sides phases(int warmup, int rounds, Duration phase, int writers, Trial library, Trial baseline)
      throws InterruptedException {
    Samples librarySamples = new Samples();
    Samples baselineSamples = new Samples();
    AtomicInteger libraryCalls = new AtomicInteger();
    AtomicInteger baselineCalls = new AtomicInteger();
    for (int round = 0; round < warmup + rounds; round++) {
      boolean measured = round >= warmup;
      boolean libraryFirst = ThreadLocalRandom.current().nextBoolean();
      for (boolean libraryTurn : new boolean[] {libraryFirst, !libraryFirst}) {
        Samples phaseSamples = phase(writers, phase, libraryTurn ? library : baseline,
            libraryTurn ? libraryCalls : baselineCalls);
        if (measured) {
          (libraryTurn ? librarySamples : baselineSamples).addAll(phaseSamples);
        }
      }
    }
    return new Sides(librarySamples, baselineSamples);
  }

  private static Samples phase(int writers, Duration length, Trial trial, AtomicInteger calls)
      throws InterruptedException {
    Samples merged = new Samples();
    CountDownLatch start = new CountDownLatch(1);
    long[] deadline = new long[1];
    List<Thread> threads = new ArrayList<>(writers);
    for (int w = 0; w < writers; w++) {
      Thread thread = new Thread(() -> {
        Samples own = new Samples();
        try {
          start.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        while (System.nanoTime() < deadline[0]) {
          try {
            own.add(trial.run(calls.getAndIncrement()));
          } catch (Exception e) {
            own.error(e);
          }
        }
        synchronized (merged) {
          merged.addAll(own);
        }
      }, "side-by-side-writer-" + w);
      threads.add(thread);
      thread.start();
    }
    long begin = System.nanoTime();
    deadline[0] = begin + length.toNanos();
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    merged.addWall(System.nanoTime() - begin);
    return merged;
  }
}
