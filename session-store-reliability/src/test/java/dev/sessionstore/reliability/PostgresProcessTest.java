package dev.sessionstore.reliability;

/** {@link ProcessScenarios} on the shared PostgreSQL. */
class PostgresProcessTest extends ProcessScenarios {

  @Override
  protected Database database() {
    return SharedPostgres.get();
  }
}
