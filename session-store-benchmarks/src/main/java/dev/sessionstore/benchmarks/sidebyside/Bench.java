package dev.sessionstore.benchmarks.sidebyside;

import java.sql.SQLException;

/**
 * Where and how much a run measures: the PostgreSQL (a JDBC URL whose user may create schemas) and the scale.
 *
 * @param jdbcUrl the measured database
 * @param scale   how many calls each measure makes
 */
public record Bench(String jdbcUrl, Scale scale) {

  /** A fresh, empty schema named after {@code purpose}. */
  PgSchema schema(String purpose) throws SQLException {
    return PgSchema.create(jdbcUrl, purpose);
  }

  /** A fresh schema named after {@code purpose}, with the library's tables. */
  PgSchema schemaWithTables(String purpose) throws SQLException {
    return PgSchema.withTables(jdbcUrl, purpose);
  }
}
