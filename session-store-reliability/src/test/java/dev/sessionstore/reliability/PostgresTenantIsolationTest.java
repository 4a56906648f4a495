package dev.sessionstore.reliability;

/** {@link TenantIsolationProperties} on the shared PostgreSQL. */
class PostgresTenantIsolationTest extends TenantIsolationProperties {

  @Override
  protected Database database() {
    return SharedPostgres.get();
  }
}
