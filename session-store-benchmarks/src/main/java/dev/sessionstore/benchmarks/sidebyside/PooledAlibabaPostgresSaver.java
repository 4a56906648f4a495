package dev.sessionstore.benchmarks.sidebyside;

import com.alibaba.cloud.ai.graph.checkpoint.savers.postgresql.PostgresSaver;
import com.alibaba.cloud.ai.graph.serializer.StateSerializer;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Spring AI Alibaba Graph's own {@link PostgresSaver}, unchanged but for where its connections come from: its
 * builder takes host, port, user, password and database only and opens a new, unpooled connection
 * ({@code PGSimpleDataSource}) for every call; here it takes them from a HikariCP pool of the same settings as the
 * library's ({@link PgSchema#pool()}), through its {@code getConnection()} extension point, so that both sides pay for
 * connections alike and its tables land in a schema of its own. Its SQL, its transactions and its in-memory copy of
 * every thread it has read or written ({@code MemorySaver}, which it extends) are its own.
 */
final class PooledAlibabaPostgresSaver extends PostgresSaver {

  private final DataSource pool;

  /** A saver on {@code pool}'s schema; {@code createTables} creates its tables there first. */
  PooledAlibabaPostgresSaver(DataSource pool, StateSerializer serializer, boolean createTables)
      throws SQLException {
    super(new PostgresSaver.Builder().stateSerializer(serializer));
    this.pool = pool;
    if (createTables) {
      super.initTable(false, true);
    }
  }

  /** Skipped while the superclass constructs (it has no pool yet); the constructor runs it once the pool is set. */
  @Override
  protected void initTable(boolean dropTablesFirst, boolean createTables) throws SQLException {
    if (pool != null) {
      super.initTable(dropTablesFirst, createTables);
    }
  }

  @Override
  protected Connection getConnection() throws SQLException {
    return pool.getConnection();
  }
}
