package dev.sessionstore.cassandra.internal;

import java.util.function.Supplier;

/** Runs reads, turning a driver failure into a retryable store failure (a read changes nothing). */
final class Reads {

  private Reads() {
  }

  static <T> T run(Supplier<T> read) {
    try {
      return read.get();
    } catch (RuntimeException e) {
      if (DriverFailures.isDriverFailure(e)) {
        throw DriverFailures.failed("reading", e);
      }
      throw e;
    }
  }
}
