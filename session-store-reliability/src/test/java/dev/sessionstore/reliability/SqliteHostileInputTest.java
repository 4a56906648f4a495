package dev.sessionstore.reliability;

/** {@link HostileInputScenarios} on a SQLite file. */
class SqliteHostileInputTest extends HostileInputScenarios {

  @Override
  protected Database database() {
    return SqliteFile.get();
  }
}
