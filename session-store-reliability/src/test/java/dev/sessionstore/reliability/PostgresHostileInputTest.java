package dev.sessionstore.reliability;

/** {@link HostileInputScenarios} on the shared PostgreSQL. */
class PostgresHostileInputTest extends HostileInputScenarios {

  @Override
  protected Database database() {
    return SharedPostgres.get();
  }
}
