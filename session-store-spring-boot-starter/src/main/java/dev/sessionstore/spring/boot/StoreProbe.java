package dev.sessionstore.spring.boot;

import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The check behind the health indicator of either Spring Boot line (each line has its own indicator class, as Boot 4
 * moved the health API to other packages): a one-session listing, which touches the store's tables, and the details
 * the indicator reports.
 */
final class StoreProbe {

  /** What the probe found: {@code failure} is null when the store answered; {@code details} go into the health. */
  record Result(RuntimeException failure, Map<String, Object> details) {
  }

  private StoreProbe() {
  }

  /**
   * Probes {@code store}. The details always hold {@code store}, its description; when the store answered and has a
   * versioned schema, also {@code schemaVersion} ({@link SessionStore#schemaVersion()}).
   */
  static Result probe(SessionStore store) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("store", store.toString());
    try {
      store.sessions().list(SessionQuery.all().limit(1));
      OptionalInt schemaVersion = store.schemaVersion();
      if (schemaVersion.isPresent()) {
        details.put("schemaVersion", schemaVersion.getAsInt());
      }
      return new Result(null, Map.copyOf(details));
    } catch (RuntimeException e) {
      return new Result(e, Map.copyOf(details));
    }
  }
}
