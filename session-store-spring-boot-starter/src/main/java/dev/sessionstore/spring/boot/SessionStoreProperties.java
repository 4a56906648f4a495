package dev.sessionstore.spring.boot;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code session-store.*} properties. Values are checked when the store is built, at startup: a bad one fails
 * the context with a message naming the property.
 *
 * @param type          which store to build when the application defines none: {@code auto} (default) takes the
 *                      application's {@code DataSource} when there is one, else a SQLite file; {@code jdbc} requires
 *                      the {@code DataSource}; {@code sqlite} always uses the file; {@code memory} keeps everything
 *                      in memory, lost at shutdown
 * @param schema        the PostgreSQL schema of the tables; default {@code public} (ignored on SQLite)
 * @param tablePrefix   the prefix of every table name; default {@code session_store_}
 * @param notifications whether appends wake other instances' waiting reads through PostgreSQL {@code NOTIFY};
 *                      default {@code true}
 * @param retryTimeout  how long a call retries after a lost connection; default 10 seconds, at most 10 minutes
 * @param sqlite        the SQLite file used when there is no {@code DataSource} (or {@code type=sqlite})
 * @param chatMemory    the Spring AI chat memory repository
 */
@ConfigurationProperties("session-store")
public record SessionStoreProperties(
    @DefaultValue("auto") Type type,
    String schema,
    String tablePrefix,
    @DefaultValue("true") boolean notifications,
    @DefaultValue("10s") Duration retryTimeout,
    @DefaultValue Sqlite sqlite,
    @DefaultValue ChatMemory chatMemory) {

  /** Which store the auto-configuration builds. */
  public enum Type {
    /** The application's {@code DataSource} if there is one, else the SQLite file. */
    AUTO,
    /** The application's {@code DataSource}; startup fails without one. */
    JDBC,
    /** The SQLite file of {@code session-store.sqlite.path}. */
    SQLITE,
    /** In memory only: nothing survives a restart. */
    MEMORY
  }

  /**
   * The SQLite store.
   *
   * @param path the database file, created if missing; default {@code ./sessions.db}
   */
  public record Sqlite(@DefaultValue("./sessions.db") String path) {
  }

  /**
   * The chat memory repository.
   *
   * @param owner the owner name marking the conversations the repository writes and lists; default
   *              {@code spring-ai}
   */
  public record ChatMemory(@DefaultValue("spring-ai") String owner) {
  }
}
