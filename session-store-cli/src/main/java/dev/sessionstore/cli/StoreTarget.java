package dev.sessionstore.cli;

import java.util.regex.Pattern;

/**
 * Where a command's store lives, as the global options name it: the in-memory store of this process, or a database
 * by JDBC URL with an optional schema and table prefix ({@code null} for the adapter's defaults).
 *
 * @param jdbcUrl     the database, or {@code null} for the in-memory store
 * @param schema      the PostgreSQL schema, or {@code null}
 * @param tablePrefix the table prefix, or {@code null}
 */
record StoreTarget(String jdbcUrl, String schema, String tablePrefix) {

  /** The database used when neither {@code --jdbc-url} nor {@code --memory} is given. */
  static final String DEFAULT_URL = "jdbc:sqlite:sessions.db";

  private static final Pattern SECRET_PARAMETER =
      Pattern.compile("(?i)((?:password|sslpassword)=)[^&;]*");
  private static final Pattern USER_INFO = Pattern.compile("(//[^/@:]*:)[^/@]*@");

  static StoreTarget memory() {
    return new StoreTarget(null, null, null);
  }

  boolean isMemory() {
    return jdbcUrl == null;
  }

  /** The target for messages: the URL with any password masked, or "the in-memory store". */
  String describe() {
    if (isMemory()) {
      return "the in-memory store";
    }
    String url = USER_INFO.matcher(jdbcUrl).replaceAll("$1***@");
    url = SECRET_PARAMETER.matcher(url).replaceAll("$1***");
    return url + (schema == null ? "" : " (schema " + schema + ")")
        + (tablePrefix == null ? "" : " (table prefix " + tablePrefix + ")");
  }
}
