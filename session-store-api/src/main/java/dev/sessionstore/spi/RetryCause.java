package dev.sessionstore.spi;

/**
 * Why a store ran a unit of work again inside one call ({@link StoreEvents#retried}): a closed choice, so that a
 * meter tagged with it stays low-cardinality. The caller sees one call whatever the retries; each repetition is
 * reported once, the first attempt never.
 */
public enum RetryCause {

  /** The database rolled the transaction back to keep transactions serializable (SQLState {@code 40001}). */
  SERIALIZATION("serialization"),

  /** The database broke a deadlock by rolling this transaction back (SQLState {@code 40P01}). */
  DEADLOCK("deadlock"),

  /**
   * The database was busy or locked by another writer and rolled the work back (SQLite's {@code SQLITE_BUSY} and
   * {@code SQLITE_LOCKED}, and any other conflict that is neither of the two above).
   */
  CONFLICT("conflict"),

  /** The connection was lost or the server was not accepting connections; the work ran again on a fresh one. */
  CONNECTION("connection");

  private final String tag;

  RetryCause(String tag) {
    this.tag = tag;
  }

  /** The value of a meter's {@code cause} tag for this cause: lower case, fixed ({@code "deadlock"}, ...). */
  public String tag() {
    return tag;
  }
}
