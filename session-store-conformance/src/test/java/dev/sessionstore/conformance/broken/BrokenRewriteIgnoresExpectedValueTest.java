package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.spi.StoredValue;
import dev.sessionstore.spi.StoredValuePage;
import dev.sessionstore.spi.StoredValues;
import java.time.Clock;
import java.util.Optional;

/**
 * A store whose stored-value rewrite writes blindly: it reads the current value and rewrites with that as the
 * expected one, so a pass beside a writer overwrites the writer's newer value.
 */
class BrokenRewriteIgnoresExpectedValueTest extends BrokenStoreTest {

  BrokenRewriteIgnoresExpectedValueTest() {
    super(SessionStoreConformance.StoredValues.class, "aStaleRewriteDoesNotApply",
        "a rewrite expecting the value the first one replaced");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withStoredValues(values -> new StoredValues() {
      @Override
      public StoredValuePage scan(Optional<String> cursor, int limit) {
        return values.scan(cursor, limit);
      }

      @Override
      public boolean rewrite(StoredValue expected, StoredValue replacement) {
        Optional<String> cursor = Optional.empty();
        while (true) {
          StoredValuePage page = values.scan(cursor, 100);
          for (StoredValue current : page.values()) {
            if (current.ref().equals(expected.ref())) {
              return values.rewrite(current, replacement);
            }
          }
          cursor = page.nextCursor();
          if (cursor.isEmpty()) {
            return false;
          }
        }
      }
    });
  }
}
