package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

/** Unwraps lookups the kit expects to find something, failing with what was looked for instead of a bare exception. */
final class Lookups {

  private Lookups() {
  }

  /** The value of {@code lookup}, failing the test with {@code what} when it is empty. */
  static <T> T present(Optional<T> lookup, String what, Object... args) {
    assertThat(lookup).as(what, args).isPresent();
    return lookup.get();
  }
}
