package dev.sessionstore.cli;

/**
 * The exit status of every {@code session-store} command: 0 on success, one distinct code per kind of failure, so
 * scripts can tell what went wrong without reading the message. The codes are part of the tool's documented
 * interface (its README lists them) and never change meaning.
 */
public enum ExitCode {

  /** The command did what it was asked. */
  OK(0),
  /** The store failed, or something unexpected happened; {@code --verbose} shows the stack trace. */
  FAILURE(1),
  /** The command line is wrong: an unknown command or option, a missing or invalid value. */
  USAGE(2),
  /** No session has the id (or name) the command names. */
  UNKNOWN_SESSION(3),
  /** {@code --jdbc-url} is not a JDBC URL of a supported database (PostgreSQL, SQLite). */
  BAD_URL(4),
  /** The database cannot be reached: connection refused, unknown host, authentication failed. */
  UNREACHABLE(5),
  /** The database holds no session-store tables at the version this tool needs; run {@code migrate}. */
  NO_SCHEMA(6),
  /** An import file is not a valid export; the message names the line, and nothing of its session is imported. */
  CORRUPT_FILE(7),
  /** A file cannot be read or written. */
  FILE_ERROR(8),
  /** The data conflicts with what the store holds, such as the demo's sessions already being there. */
  CONFLICT(9),
  /** The SQLite file is not a SQLite database (another kind of file); {@code migrate} cannot fix it. */
  NOT_A_DATABASE(10),
  /** The SQLite file is a database, but corrupt or truncated; {@code migrate} cannot fix it. */
  DAMAGED_DATABASE(11),
  /**
   * The SQLite file, or its folder, is read-only (read-only media, permissions) and the command writes; commands that
   * only read open such a store for reading.
   */
  READ_ONLY(12),
  /**
   * The store does not support what the command needs: it lacks an optional capability, which the message names
   * (such as {@code search} on a store without {@code SEARCH}).
   */
  UNSUPPORTED(13);

  private final int code;

  ExitCode(int code) {
    this.code = code;
  }

  /** The process exit status. */
  public int code() {
    return code;
  }
}
