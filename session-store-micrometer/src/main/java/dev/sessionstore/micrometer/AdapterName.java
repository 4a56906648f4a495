package dev.sessionstore.micrometer;

import dev.sessionstore.SessionStore;

/** The default value of the {@code adapter} tag of a store's observations and meters. */
final class AdapterName {

  private AdapterName() {
  }

  /**
   * The store's description up to its first {@code [}, which names the adapter's class
   * ({@code JdbcSessionStore}, {@code InMemorySessionStore}); {@code unknown} when that is empty or longer than 64
   * characters.
   */
  static String of(SessionStore store) {
    String description = String.valueOf(store);
    int end = description.indexOf('[');
    String name = (end < 0 ? description : description.substring(0, end)).strip();
    return name.isEmpty() || name.length() > 64 ? "unknown" : name;
  }
}
