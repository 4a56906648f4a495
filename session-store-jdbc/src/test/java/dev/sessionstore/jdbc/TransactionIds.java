package dev.sessionstore.jdbc;

/**
 * Which transaction wrote each event row of a test schema, for tests that count transaction ids instead of timing:
 * a trigger notes, for every event row inserted, the id of the top-level transaction inserting it
 * ({@code txid_current()}, which inside a subtransaction still answers the top-level one). A row written inside a
 * subtransaction (a PL/pgSQL {@code EXCEPTION} block) carries the subtransaction's own id as its {@code xmin}, so it
 * differs from the noted one; a row written by the transaction itself carries the noted id. Other sessions' activity
 * on the database does not change either id of a row, so the count is exact on a shared server.
 */
final class TransactionIds {

  private final TestSchema schema;

  private TransactionIds(TestSchema schema) {
    this.schema = schema;
  }

  /** Installs the trigger on the events table of {@code schema}, whose tables must exist. */
  static TransactionIds noteOn(TestSchema schema) {
    String quoted = "\"" + schema.name() + "\"";
    TestDatabase.get().execute("CREATE TABLE " + quoted + ".noted_xids (event_id text NOT NULL, top_xid bigint NOT"
        + " NULL)");
    TestDatabase.get().execute("CREATE FUNCTION " + quoted + ".note_xid() RETURNS trigger LANGUAGE plpgsql AS $$"
        + " BEGIN INSERT INTO " + quoted + ".noted_xids VALUES (NEW.id, txid_current()); RETURN NULL; END $$");
    TestDatabase.get().execute("CREATE TRIGGER note_xid AFTER INSERT ON " + quoted + ".session_store_events"
        + " FOR EACH ROW EXECUTE FUNCTION " + quoted + ".note_xid()");
    return new TransactionIds(schema);
  }

  /** How many stored event rows were written inside a subtransaction: their {@code xmin} is not the noted id. */
  long writtenInSubtransactions() {
    return (Long) schema.queryValue("SELECT count(*) FROM \"" + schema.name() + "\".session_store_events AS e"
        + " JOIN \"" + schema.name() + "\".noted_xids AS x ON x.event_id = e.id"
        + " WHERE e.xmin::text::bigint <> x.top_xid % 4294967296");
  }

  /** How many stored event rows the trigger noted. */
  long noted() {
    return (Long) schema.queryValue("SELECT count(*) FROM \"" + schema.name() + "\".noted_xids");
  }
}
