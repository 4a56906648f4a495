package dev.sessionstore.cassandra.internal;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Instants as the store keeps them: microseconds since the epoch in a {@code bigint}, the precision of the contract
 * (a CQL {@code timestamp} keeps milliseconds only, and would change what a read returns).
 */
final class Micros {

  private Micros() {
  }

  static long of(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  static Instant instant(long micros) {
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }
}
