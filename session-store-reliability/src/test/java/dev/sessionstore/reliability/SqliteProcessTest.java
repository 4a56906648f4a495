package dev.sessionstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link ProcessScenarios} on one SQLite file shared by the JVMs, and how soon an append in one process wakes a
 * waiting read in another, which SQLite has no notification for: the waiting store reads the file's change counter
 * every change poll interval (default 50 ms).
 */
class SqliteProcessTest extends ProcessScenarios {

  private static final Duration PATIENCE = Duration.ofMinutes(1);
  private static final int WAKES = 200;

  @Override
  protected Database database() {
    return SqliteFile.get();
  }

  @Test
  @DisplayName("An append in this JVM wakes a waiting read in another JVM within a few change poll intervals")
  void crossProcessWakeLatency() throws Exception {
    String namespace = Database.uniqueSchema("wakes");
    try (OpenStores stores = new OpenStores(database(), namespace);
         ChildJvm waiter = ChildJvm.start("waiter", database(), namespace, StoreTuning.defaults().notificationsOnly())) {
      SessionStore writer = stores.store("writer", 2, StoreTuning.defaults());
      long[] micros = new long[WAKES];
      for (int i = 0; i < WAKES; i++) {
        waiter.send("await wakes " + i + " 60000");
        waiter.next(line -> line.equals("waiting"), PATIENCE);
        // A random pause parks the read and lands the append anywhere in the poll interval.
        Thread.sleep(20 + ThreadLocalRandom.current().nextInt(60));
        writer.events().append("wakes", NewEvent.of("ping").withId("ping-" + i));
        long committed = System.nanoTime();
        String woken = waiter.next(line -> line.startsWith("woken ") || line.equals("timeout"), PATIENCE);
        micros[i] = (System.nanoTime() - committed) / 1_000;
        assertThat(woken).isEqualTo("woken ping-" + i + " " + (i + 1));
      }
      Arrays.sort(micros);
      long p50 = micros[WAKES / 2];
      long p99 = micros[WAKES * 99 / 100];
      System.out.printf("SqliteProcessTest: %d appends woke a waiting read in another JVM (change poll 50 ms),"
              + " measured from the append's return to the woken line: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
          WAKES, p50 / 1000.0, p99 / 1000.0, micros[WAKES - 1] / 1000.0);
      assertThat(p99).as("p99 wake latency in microseconds").isLessThan(1_000_000);
    }
  }
}
