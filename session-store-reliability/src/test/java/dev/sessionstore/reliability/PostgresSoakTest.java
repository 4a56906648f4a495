package dev.sessionstore.reliability;

/** {@link SoakScenarios} on the shared PostgreSQL. */
class PostgresSoakTest extends SoakScenarios {

  @Override
  protected Database database() {
    return SharedPostgres.get();
  }
}
