package dev.sessionstore.conformance;

import dev.sessionstore.Capability;
import dev.sessionstore.SessionStore;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/** What a store declares against what a group or test needs, and the reason a skip gives, in a stable order. */
final class Capabilities {

  private Capabilities() {
  }

  /** The capabilities of {@code needed} that {@code store} does not declare, in {@link Capability} order. */
  static Set<Capability> missing(SessionStore store, Collection<Capability> needed) {
    Set<Capability> missing = EnumSet.noneOf(Capability.class);
    for (Capability capability : needed) {
      if (!store.supports(capability)) {
        missing.add(capability);
      }
    }
    return Collections.unmodifiableSet(missing);
  }

  /** "store does not declare Capability.A, Capability.B": every missing capability, in {@link Capability} order. */
  static String skipReason(Set<Capability> missing) {
    return "store does not declare " + missing.stream().sorted()
        .map(capability -> Capability.class.getSimpleName() + "." + capability)
        .collect(Collectors.joining(", "));
  }
}
