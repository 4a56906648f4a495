package dev.sessionstore.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Latencies of operations, per operation and minute since the log started, and their percentiles. Thread-safe. */
final class LatencyLog {

  private final long started = System.nanoTime();
  private final Map<String, Map<Integer, ConcurrentLinkedQueue<Long>>> nanos = new ConcurrentHashMap<>();

  /** Records that one {@code operation} took {@code elapsedNanos}, ending now. */
  void record(String operation, long elapsedNanos) {
    int minute = (int) ((System.nanoTime() - started) / 60_000_000_000L);
    nanos.computeIfAbsent(operation, key -> new ConcurrentHashMap<>())
        .computeIfAbsent(minute, key -> new ConcurrentLinkedQueue<>()).add(elapsedNanos);
  }

  /** The operations recorded, sorted. */
  List<String> operations() {
    return new ArrayList<>(new TreeMap<>(nanos).keySet());
  }

  /** For {@code operation}, each minute's count and p50 and p99 in milliseconds, by minute. */
  Map<Integer, Percentiles> perMinute(String operation) {
    Map<Integer, Percentiles> result = new TreeMap<>();
    nanos.getOrDefault(operation, Map.of()).forEach((minute, values) -> {
      List<Long> sorted = values.stream().sorted().toList();
      result.put(minute, new Percentiles(sorted.size(), percentile(sorted, 0.50), percentile(sorted, 0.99)));
    });
    return result;
  }

  private static double percentile(List<Long> sorted, double fraction) {
    int index = (int) Math.ceil(fraction * sorted.size()) - 1;
    return sorted.get(Math.max(0, index)) / 1_000_000.0;
  }

  /** One minute of one operation: how many ran, and the p50 and p99 latency in milliseconds. */
  record Percentiles(int count, double p50, double p99) {
  }
}
