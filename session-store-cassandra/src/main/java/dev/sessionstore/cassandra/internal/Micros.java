package dev.sessionstore.cassandra.internal;

import dev.sessionstore.InvalidArgumentException;
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

  /**
   * {@code instant} as the exclusive upper bound of a range of stored micros: saturated at the ends of a
   * {@code bigint}, so that an instant beyond them bounds every stored value (or none) as it bounds every instant.
   */
  static long bound(Instant instant) {
    if (instant.isAfter(instant(Long.MAX_VALUE))) {
      return Long.MAX_VALUE;
    }
    return instant.isBefore(instant(Long.MIN_VALUE)) ? Long.MIN_VALUE : of(instant);
  }

  /**
   * {@code instant}, if a {@code bigint} of micros holds it.
   *
   * @throws InvalidArgumentException naming {@code field} if it does not
   */
  static Instant requireStorable(String field, Instant instant) {
    if (instant.isAfter(instant(Long.MAX_VALUE)) || instant.isBefore(instant(Long.MIN_VALUE))) {
      throw new InvalidArgumentException(field, instant + " is outside the range of instants the store keeps");
    }
    return instant;
  }

  static Instant instant(long micros) {
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }
}
