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
    return maskedUrl() + (schema == null ? "" : " (schema " + schema + ")")
        + (tablePrefix == null ? "" : " (table prefix " + tablePrefix + ")");
  }

  /**
   * The global options that name this target on a command line, for commands printed to try next: none for the
   * default file, else {@code --memory} or {@code --jdbc-url '<url>'} (any password masked as {@code ***}) with
   * {@code --schema} and {@code --table-prefix} when set. Each option is preceded by a space.
   */
  String options() {
    if (isMemory()) {
      return " --memory";
    }
    return (jdbcUrl.equals(DEFAULT_URL) ? "" : " --jdbc-url '" + maskedUrl() + "'")
        + (schema == null ? "" : " --schema " + schema)
        + (tablePrefix == null ? "" : " --table-prefix " + tablePrefix);
  }

  private String maskedUrl() {
    String url = USER_INFO.matcher(jdbcUrl).replaceAll("$1***@");
    return SECRET_PARAMETER.matcher(url).replaceAll("$1***");
  }
}
