package dev.sessionstore.reliability;

/** {@link TenantIsolationProperties} on a SQLite file. */
class SqliteTenantIsolationTest extends TenantIsolationProperties {

  @Override
  protected Database database() {
    return SqliteFile.get();
  }
}
