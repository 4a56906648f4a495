package dev.sessionstore.conformance.broken;

import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import dev.sessionstore.spi.StoredValue;
import dev.sessionstore.spi.StoredValueCursor;
import dev.sessionstore.spi.StoredValuePage;
import dev.sessionstore.spi.StoredValues;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A store whose stored-value scan names, as the next cursor, the value before the last one of a page, as a cursor
 * taken "one back to be safe" would: the last value of every page of two or more comes again on the next page.
 */
class BrokenScanRepeatsAtPageEndsTest extends BrokenStoreTest {

  BrokenScanRepeatsAtPageEndsTest() {
    super(SessionStoreConformance.StoredValues.class, "pagingIsCompleteWithoutDuplicates",
        "values scanned in pages of 2");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withStoredValues(values -> new StoredValues() {
      @Override
      public StoredValuePage scan(Optional<String> cursor, int limit) {
        StoredValuePage page = values.scan(cursor, limit);
        List<StoredValue> items = page.values();
        return page.nextCursor().isEmpty() || items.size() < 2 ? page
            : new StoredValuePage(items, Optional.of(StoredValueCursor.after(items.get(items.size() - 2).ref())));
      }

      @Override
      public boolean rewrite(StoredValue expected, StoredValue replacement) {
        return values.rewrite(expected, replacement);
      }
    });
  }
}
