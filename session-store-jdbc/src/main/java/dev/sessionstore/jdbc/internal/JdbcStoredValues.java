package dev.sessionstore.jdbc.internal;

import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.SearchText;
import dev.sessionstore.spi.StoredValue;
import dev.sessionstore.spi.StoredValueCursor;
import dev.sessionstore.spi.StoredValueKind;
import dev.sessionstore.spi.StoredValuePage;
import dev.sessionstore.spi.StoredValueRef;
import dev.sessionstore.spi.StoredValues;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The stored values of a JDBC store ({@link StoredValues}), the same SQL on PostgreSQL and SQLite but for the
 * compare of a document's text ({@link Dialect#jsonTextEquals}). A page is one read per kind it touches, keyset-paged
 * on each table's primary key ({@code session_id} and the row's key, in the database's own order of the key columns),
 * so a scan holds no lock between pages and costs what it returns. Events are the events table's own rows: an event a
 * fork shares is its parent's row, scanned once under the parent (a cut or deletion of the parent copies it into the
 * fork first). A rewrite is one {@code UPDATE ... WHERE} key {@code AND} value equals the expected one, in auto-commit:
 * atomic with its compare, so a writer that changed the value since the scan keeps its value.
 */
final class JdbcStoredValues implements StoredValues {

  /** Where the values of one kind live: table, key and value columns, and which rows hold one. */
  private record Source(String table, String keyColumn, String valueColumn, String holds) {
  }

  private final Database database;
  private final Dialect dialect;
  private final Sql sql;
  private final Map<StoredValueKind, Source> sources = new EnumMap<>(StoredValueKind.class);
  /** The search index of a rewritten payload, where the store writes it itself. */
  private final SearchRows searchRows;

  JdbcStoredValues(Database database, Tables tables) {
    this.database = database;
    this.dialect = database.dialect();
    this.sql = new Sql(dialect);
    this.searchRows = new SearchRows(dialect, tables);
    sources.put(StoredValueKind.EVENT_PAYLOAD, new Source(tables.events(), "seq", "payload", null));
    sources.put(StoredValueKind.TOOL_CALL_ARGUMENTS, new Source(tables.toolCalls(), "id", "arguments", null));
    sources.put(StoredValueKind.TOOL_CALL_RESULT, new Source(tables.toolCalls(), "id", "result",
        "result IS NOT NULL"));
    sources.put(StoredValueKind.SUMMARY_CONTENT, new Source(tables.summaries(), "to_seq", "content", null));
    sources.put(StoredValueKind.CHECKPOINT_DATA, new Source(tables.sessionCheckpoints(), "name", "data", null));
    sources.put(StoredValueKind.GLOBAL_CHECKPOINT_DATA, new Source(tables.globalCheckpoints(), "name", "data", null));
    sources.put(StoredValueKind.MODEL_CALL_CONTEXT, new Source(tables.modelCalls(), "turn", "context", null));
    sources.put(StoredValueKind.MODEL_CALL_USAGE, new Source(tables.modelCalls(), "turn", "usage", null));
  }

  @Override
  public StoredValuePage scan(Optional<String> cursor, int limit) {
    Optional<StoredValueRef> after = StoredValueCursor.parse(cursor);
    Arguments.requirePositive("limit", limit);
    return database.read("scan stored values", connection -> StoredValuePage.byKind(after, limit,
        (kind, from, max) -> page(connection, kind, from, max)));
  }

  /** At most {@code max} values of {@code kind} after {@code after} (a ref of the same kind), in key order. */
  private List<StoredValue> page(Connection connection, StoredValueKind kind, Optional<StoredValueRef> after,
      int max) throws SQLException {
    Source source = sources.get(kind);
    boolean global = kind == StoredValueKind.GLOBAL_CHECKPOINT_DATA;
    List<String> conditions = new ArrayList<>();
    List<Object> parameters = new ArrayList<>();
    if (source.holds() != null) {
      conditions.add(source.holds());
    }
    if (after.isPresent()) {
      Object key = key(after.get());
      if (global) {
        conditions.add(source.keyColumn() + " > ?");
        parameters.add(key);
      } else {
        conditions.add("(session_id > ? OR (session_id = ? AND " + source.keyColumn() + " > ?))");
        parameters.addAll(List.of(after.get().sessionId(), after.get().sessionId(), key));
      }
    }
    parameters.add(max);
    String owner = global ? "" : "session_id, ";
    String query = "SELECT " + owner + source.keyColumn() + " AS k, " + source.valueColumn() + " AS v FROM "
        + source.table() + (conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions))
        + " ORDER BY " + owner + source.keyColumn() + " LIMIT ?";
    return sql.list(connection, query, row -> {
      StoredValueRef ref = new StoredValueRef(kind, global ? null : row.getString("session_id"), row.getString("k"));
      return kind.blob() ? StoredValue.of(ref, row.getBytes("v")) : StoredValue.of(ref, dialect.readJson(row, "v"));
    }, parameters.toArray());
  }

  @Override
  public boolean rewrite(StoredValue expected, StoredValue replacement) {
    StoredValueCursor.checkRewrite(expected, replacement);
    StoredValueRef ref = expected.ref();
    Source source = sources.get(ref.kind());
    boolean global = ref.kind() == StoredValueKind.GLOBAL_CHECKPOINT_DATA;
    String matches = ref.kind().blob() ? source.valueColumn() + " = ?"
        : dialect.jsonTextEquals(source.valueColumn());
    // A payload's indexed words change with it: in its column, or in the search table the store writes itself.
    Optional<String> words = ref.kind() == StoredValueKind.EVENT_PAYLOAD ? dialect.wordsColumn() : Optional.empty();
    String update = "UPDATE " + source.table() + " SET " + source.valueColumn() + " = "
        + (ref.kind().blob() ? "?" : dialect.jsonParameter())
        + words.map(column -> ", " + column + " = " + dialect.indexedWords("?")).orElse("")
        + " WHERE " + (global ? "" : "session_id = ? AND ") + source.keyColumn() + " = ? AND " + matches;
    List<Object> parameters = new ArrayList<>();
    parameters.add(ref.kind().blob() ? replacement.blob() : replacement.document());
    if (words.isPresent()) {
      parameters.add(SearchText.indexText(replacement.document()));
    }
    if (!global) {
      parameters.add(ref.sessionId());
    }
    parameters.add(key(ref));
    parameters.add(ref.kind().blob() ? expected.blob() : expected.document().text());
    if (ref.kind() == StoredValueKind.EVENT_PAYLOAD && searchRows.writesRows()) {
      return database.transaction("rewrite stored value " + ref, connection -> {
        boolean rewritten = sql.update(connection, update, parameters.toArray()) == 1;
        if (rewritten) {
          searchRows.reindex(connection, ref.sessionId(), ref.numericKey(), replacement.document());
        }
        return rewritten;
      });
    }
    return database.autoCommit("rewrite stored value " + ref,
        connection -> sql.update(connection, update, parameters.toArray()) == 1);
  }

  private static Object key(StoredValueRef ref) {
    return ref.kind().numericKey() ? (Object) ref.numericKey() : ref.key();
  }
}
