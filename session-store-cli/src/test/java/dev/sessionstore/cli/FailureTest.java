package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Each bad input gets one clear line on standard error and its own exit code; a stack trace only with --verbose. */
class FailureTest {

  @Test
  @DisplayName("An unknown session: exit 3, named in one line")
  void unknownSession() throws Exception {
    try (PostgresSchema schema = new PostgresSchema()) {
      assertThat(Cli.run(schema.with("migrate")).exitCode()).isZero();

      assertFailure(Cli.run(schema.with("events", "no-such-session")), ExitCode.UNKNOWN_SESSION,
          "session-store: no session with id or name \"no-such-session\"");
      assertFailure(Cli.run(schema.with("sessions", "show", "no-such-session")), ExitCode.UNKNOWN_SESSION,
          "session-store: no session with id or name \"no-such-session\"");
    }
  }

  @Test
  @DisplayName("A URL that is no JDBC URL, a malformed one and one of another database: exit 4")
  void malformedUrl() {
    assertFailure(Cli.run("sessions", "list", "--jdbc-url", "postgres://localhost/test"), ExitCode.BAD_URL,
        "session-store: not a JDBC URL: postgres://localhost/test");
    assertFailure(Cli.run("sessions", "list", "--jdbc-url", "jdbc:postgresql://localhost:notaport/test"),
        ExitCode.BAD_URL, "session-store: malformed JDBC URL: jdbc:postgresql://localhost:notaport/test");
    assertFailure(Cli.run("sessions", "list", "--jdbc-url", "jdbc:mysql://localhost/test"), ExitCode.BAD_URL,
        "session-store: unsupported database: jdbc:mysql://localhost/test");
  }

  @Test
  @DisplayName("An unreachable database: exit 5, the URL without its password")
  void unreachable() {
    Cli.Result result = Cli.run("sessions", "list", "--jdbc-url",
        "jdbc:postgresql://127.0.0.1:1/test?user=postgres&password=secret");

    assertFailure(result, ExitCode.UNREACHABLE,
        "session-store: cannot connect to jdbc:postgresql://127.0.0.1:1/test?user=postgres&password=***: ");
    assertThat(result.err()).doesNotContain("secret");
  }

  @Test
  @DisplayName("A database without the tables: exit 6, telling to run migrate")
  void noSchema() throws Exception {
    try (PostgresSchema schema = new PostgresSchema()) {
      Cli.Result result = Cli.run(schema.with("events", "any"));

      assertFailure(result, ExitCode.NO_SCHEMA, "session-store: jdbc:postgresql:");
      assertThat(result.err()).contains("run `session-store migrate`");
    }
  }

  @Test
  @DisplayName("A bad command line: exit 2 with the problem and where to find help")
  void usage() {
    Cli.Result unknownOption = Cli.run("events", "s", "--memory", "--bogus");
    Cli.Result bothStores = Cli.run("sessions", "list", "--memory", "--jdbc-url", "jdbc:sqlite:x.db");
    Cli.Result twoLimits = Cli.run("events", "s", "--memory", "--first", "2", "--last", "2");
    Cli.Result followBack = Cli.run("events", "s", "--memory", "--follow", "--newest-first");
    Cli.Result noCommand = Cli.run();
    Cli.Result badLimit = Cli.run("sessions", "list", "--memory", "--limit", "0");

    assertThat(unknownOption.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(unknownOption.err()).startsWith("session-store: Unknown option: '--bogus'")
        .contains("Run 'session-store events --help' for usage.");
    assertThat(bothStores.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(bothStores.err()).startsWith("session-store: --memory cannot be combined with --jdbc-url");
    assertThat(twoLimits.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(twoLimits.err()).startsWith("session-store: --first, --last and --limit exclude each other");
    assertThat(followBack.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(noCommand.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(noCommand.err()).startsWith("session-store: a command is required");
    assertFailure(badLimit, ExitCode.USAGE, "session-store: invalid limit: ");
  }

  @Test
  @DisplayName("--verbose adds the stack trace")
  void verbose() {
    Cli.Result quiet = Cli.run("sessions", "list", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/test");
    Cli.Result verbose = Cli.run("sessions", "list", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/test",
        "--verbose");

    assertThat(quiet.err()).doesNotContain("\tat ");
    assertThat(verbose.exitCode()).isEqualTo(ExitCode.UNREACHABLE.code());
    assertThat(verbose.err()).startsWith("session-store: cannot connect").contains("\tat ", "Caused by: ");
  }

  /** Exactly one line on standard error, starting with {@code message}, nothing on standard output. */
  static void assertFailure(Cli.Result result, ExitCode expected, String message) {
    assertThat(result.exitCode()).as(result.err()).isEqualTo(expected.code());
    assertThat(result.err().lines()).as("standard error").hasSize(1);
    assertThat(result.err()).startsWith(message).doesNotContain("\tat ");
    assertThat(result.out()).isEmpty();
  }

  /** Exit 2, the problem in one line starting with {@code message} and where to find help, nothing on standard output. */
  static void assertUsage(Cli.Result result, String message) {
    assertThat(result.exitCode()).as(result.err()).isEqualTo(ExitCode.USAGE.code());
    assertThat(result.err()).startsWith(message).doesNotContain("\tat ");
    assertThat(result.err().lines()).as("standard error").hasSize(2).last().asString().startsWith("Run 'session-store ");
    assertThat(result.out()).isEmpty();
  }
}
