package dev.sessionstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.EventQuery;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every {@link HostileInputs} case through the public API of one store (guarantee 15 of docs/guarantees.md): each is
 * stored exactly (it reads back as written) or fails with a typed error ({@link SessionStoreException}); after a typed
 * error every table of the store is byte-identical to before the call; and the store still serves afterwards. A backend
 * runs these by extending this class with its {@link #database()}.
 */
abstract class HostileInputScenarios {

  /** The database the cases run on, in a schema of their own. */
  protected abstract Database database();

  @Test
  @DisplayName("Each hostile input is stored exactly or rejected with a typed error, leaving the store byte-identical"
      + " and serving")
  void hostileInputsAreStoredExactlyOrRejected() throws Exception {
    System.out.println("HostileInputScenarios run on: " + database().description());
    String schema = Database.uniqueSchema("hostile");
    try (OpenStores stores = new OpenStores(database(), schema)) {
      SessionStore store = stores.store("hostile", 4, StoreTuning.defaults());
      store.events().append("before-hostile", NewEvent.of("seen").withId("first"));
      assertThat(TableSnapshot.of(database(), schema)).as("the snapshot sees the store's rows")
          .anyMatch(row -> row.contains("before-hostile"));
      List<HostileInputs.Case> cases = new HostileInputs().all();
      List<String> defects = new ArrayList<>();
      Map<String, Integer> rejections = new TreeMap<>();
      int stored = 0;
      for (HostileInputs.Case hostile : cases) {
        String sessionId = hostile.setup().apply(store);
        List<String> before = TableSnapshot.of(database(), schema);
        try {
          Runnable check = hostile.call().apply(store, sessionId);
          try {
            check.run();
            stored++;
          } catch (AssertionError e) {
            defects.add(hostile.name() + ": accepted but read back differently: " + e.getMessage());
          }
        } catch (SessionStoreException e) {
          rejections.merge(e.getClass().getSimpleName(), 1, Integer::sum);
          if (!TableSnapshot.of(database(), schema).equals(before)) {
            defects.add(hostile.name() + ": rejected (" + e.getMessage() + ") but the store changed");
          }
        } catch (RuntimeException e) {
          defects.add(hostile.name() + ": untyped " + e);
        }
      }
      store.events().append("after-hostile", NewEvent.of("still-serving").withId("last"));
      boolean serving = store.events().read("after-hostile", EventQuery.all()).items().size() == 1;
      System.out.printf("HostileInputScenarios: %d hostile cases: %d stored exactly, %d rejected with a typed error"
              + " %s, %d defects; store still serving: %s%n", cases.size(), stored,
          rejections.values().stream().mapToInt(Integer::intValue).sum(), rejections, defects.size(), serving);
      defects.forEach(defect -> System.out.println("  defect: " + defect));
      assertThat(cases).hasSizeGreaterThanOrEqualTo(200);
      assertThat(defects).isEmpty();
      assertThat(serving).isTrue();
    }
  }
}
