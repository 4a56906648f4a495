package dev.sessionstore.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A schema as an older library left it: the shipped scripts up to a version, run as written with their
 * placeholders replaced, and their versions recorded, as a team that migrates by hand would.
 */
final class OlderSchema {

  private static final List<String> SCRIPTS = List.of("V1__schema.sql", "V2__writer_fencing.sql",
      "V3__retention.sql", "V4__append_fresh.sql", "V5__search.sql", "V6__expiry.sql", "V7__search_writes.sql");

  private OlderSchema() {
  }

  /**
   * Runs the scripts of versions 1 to {@code version} (at most 7) of {@code database} ({@code postgresql} or
   * {@code sqlite}) on {@code connection} for {@code quotedSchema} and the default prefix, and records them. SQLite's
   * version 5 needs the function its script calls registered on the connection.
   */
  static void createAtVersion(Connection connection, String database, String quotedSchema, int version)
      throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("CREATE TABLE " + quotedSchema + ".session_store_schema_version (version INTEGER"
          + " PRIMARY KEY, description TEXT NOT NULL, installed_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)");
      for (int i = 0; i < version; i++) {
        String script = load(database, SCRIPTS.get(i)).replace("${schema}", quotedSchema)
            .replace("${prefix}", "session_store_");
        // pgjdbc runs a script of several statements whose last is a query (version 7's SELECT 1) by execute;
        // sqlite-jdbc runs all of a script's statements by executeUpdate only.
        if (database.equals("postgresql")) {
          statement.execute(script);
        } else {
          statement.executeUpdate(script);
        }
        String name = SCRIPTS.get(i);
        statement.executeUpdate("INSERT INTO " + quotedSchema + ".session_store_schema_version (version,"
            + " description) VALUES (" + (i + 1) + ", '" + name.substring(name.indexOf("__") + 2,
            name.length() - 4) + "')");
      }
    }
  }

  private static String load(String database, String script) {
    String path = "dev/sessionstore/jdbc/" + database + "/" + script;
    try (InputStream in = OlderSchema.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
