package dev.sessionstore.springai.alibaba;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.graph.GraphBackend;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.StatementCounter;
import dev.sessionstore.jdbc.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A resumed graph step through the saver executes the same SQL statements on PostgreSQL at 10 and 10,000 checkpoints
 * in the thread: counted, not timed. The store's deadline sweep and notifications are off, so only the step counts.
 */
class StepStatementsTest {

  @Test
  @DisplayName("a resumed step (get the latest, put two checkpoints) is the same statements at 10 and 10,000")
  void statementsAreFlat() throws Exception {
    long[] atTen = statements(10);
    long[] atTenThousand = statements(10_000);

    System.out.printf("a resumed step on PostgreSQL at 10 / 10,000 checkpoints: %d / %d statements%n", atTen[2],
        atTenThousand[2]);
    assertThat(atTenThousand).containsExactly(atTen);
  }

  private static long[] statements(int length) throws Exception {
    String schema = TestDatabase.uniqueName("saa_step");
    StatementCounter statements = new StatementCounter();
    ReadCounter reads = new ReadCounter();
    try (HikariDataSource pool = GraphBackend.pool(schema, 4);
         SessionStore store = JdbcSessionStore.builder().dataSource(statements.wrap(pool)).schema(schema)
             .notifications(false).deadlineSweepInterval(Duration.ofHours(1)).build()) {
      return CheckpointSaverContract.stepCost(store, reads.wrap(store), reads, statements::statements, "t", length);
    } finally {
      TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }
}
