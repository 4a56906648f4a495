package dev.sessionstore.reliability;

import java.time.Duration;

/**
 * The timing settings a reliability test gives a store: how long a call retries after a lost connection, how often
 * a waiting read polls when no notification arrives, and how often deadlines are swept.
 */
record StoreTuning(Duration retryTimeout, Duration waitPollInterval, Duration deadlineSweepInterval) {

  /** The library's defaults: retry 10 s, poll 5 s, sweep 1 s. */
  static StoreTuning defaults() {
    return new StoreTuning(Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(1));
  }

  StoreTuning retryTimeout(Duration timeout) {
    return new StoreTuning(timeout, waitPollInterval, deadlineSweepInterval);
  }

  /** Waits that wake only by notification: a poll every ten minutes. */
  StoreTuning notificationsOnly() {
    return new StoreTuning(retryTimeout, Duration.ofMinutes(10), deadlineSweepInterval);
  }

  StoreTuning deadlineSweepInterval(Duration interval) {
    return new StoreTuning(retryTimeout, waitPollInterval, interval);
  }

  /** As command-line words, for a store opened in another process. */
  String[] toArguments() {
    return new String[] {retryTimeout.toString(), waitPollInterval.toString(), deadlineSweepInterval.toString()};
  }

  /** The tuning {@link #toArguments()} wrote, from {@code arguments[from..from+2]}. */
  static StoreTuning fromArguments(String[] arguments, int from) {
    return new StoreTuning(Duration.parse(arguments[from]), Duration.parse(arguments[from + 1]),
        Duration.parse(arguments[from + 2]));
  }
}
