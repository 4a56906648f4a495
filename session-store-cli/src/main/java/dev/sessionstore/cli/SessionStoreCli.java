package dev.sessionstore.cli;

import dev.sessionstore.ConflictException;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.SessionStoreException;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.UnsupportedCapabilityException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code session-store} command: global options (where the store is, how to print) and the subcommands. Every
 * failure ends as one line on standard error, {@code session-store: <what failed>}, and a distinct
 * {@link ExitCode}; the stack trace only with {@code --verbose}.
 *
 * <p>{@link #main} runs it as a process; {@link #run} runs it on given streams and returns the exit status.
 */
@Command(
    name = "session-store",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Reads and writes a session-store: agent conversations in SQLite, PostgreSQL or memory.",
    subcommands = {
        DemoCommand.class,
        SessionsCommand.class,
        EventsCommand.class,
        SearchCommand.class,
        ExportCommand.class,
        ImportCommand.class,
        MigrateCommand.class,
        RetentionCommand.class,
        ReencryptCommand.class,
        StatsCommand.class,
        CommandLine.HelpCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:done",
        "1:the store failed, or an unexpected error (see --verbose)",
        "2:bad command line",
        "3:unknown session",
        "4:malformed or unsupported JDBC URL",
        "5:database unreachable",
        "6:no session-store tables: run migrate",
        "7:corrupt import file (the line is named; nothing of its session imported)",
        "8:a file cannot be read or written",
        "9:conflicts with stored data",
        "10:the SQLite file is not a database",
        "11:the SQLite file is corrupt or truncated",
        "12:the SQLite file or its folder is read-only, and the command writes",
        "13:the store does not support what the command needs (the capability is named)",
        "130:stopped by Ctrl-C (how events --follow ends)"})
public final class SessionStoreCli implements Runnable {

  /** The PostgreSQL driver logs through java.util.logging; held here so its level is not lost to collection. */
  private static final Logger POSTGRES_DRIVER_LOG = Logger.getLogger("org.postgresql");

  @Spec
  private CommandSpec spec;

  @Option(names = "--jdbc-url", scope = ScopeType.INHERIT, paramLabel = "<url>",
      description = "The database: jdbc:sqlite:<file> or jdbc:postgresql://host:port/db?user=... "
          + "(default: " + StoreTarget.DEFAULT_URL + ").")
  private String jdbcUrl;

  @Option(names = "--memory", scope = ScopeType.INHERIT,
      description = "Use an in-memory store that lives as long as the command.")
  private boolean memory;

  @Option(names = "--schema", scope = ScopeType.INHERIT, paramLabel = "<name>",
      description = "PostgreSQL schema of the tables (default: public).")
  private String schema;

  @Option(names = "--table-prefix", scope = ScopeType.INHERIT, paramLabel = "<prefix>",
      description = "Prefix of the table names (default: session_store_).")
  private String tablePrefix;

  @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print JSON for scripts instead of tables.")
  private boolean json;

  @Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Print stack traces and more logging.")
  private boolean verbose;

  private final PrintStream out;
  private final PrintStream err;
  private final boolean interactive;

  private SessionStoreCli(PrintStream out, PrintStream err, boolean interactive) {
    this.out = out;
    this.err = err;
    this.interactive = interactive;
  }

  public static void main(String[] args) {
    boolean verbose = Arrays.asList(args).contains("--verbose");
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "info" : "warn");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    POSTGRES_DRIVER_LOG.setLevel(verbose ? Level.INFO : Level.OFF);
    System.exit(run(System.out, System.err, System.console() != null, args));
  }

  /**
   * Runs one command line and returns its exit status ({@link ExitCode#code()}).
   *
   * @param interactive whether a person watches standard error (progress bars are drawn only then)
   */
  public static int run(PrintStream out, PrintStream err, boolean interactive, String... args) {
    SessionStoreCli cli = new SessionStoreCli(out, err, interactive);
    CommandLine commandLine = new CommandLine(cli)
        .setOut(new PrintWriter(out, true, StandardCharsets.UTF_8))
        .setErr(new PrintWriter(err, true, StandardCharsets.UTF_8))
        .setExitCodeExceptionMapper(failure -> ExitCode.FAILURE.code())
        .setParameterExceptionHandler(cli::usageFailure)
        .setExecutionExceptionHandler((failure, command, parsed) -> cli.failure(failure));
    // picocli's help command opens with a header line; every usage text here opens with its Usage line
    commandLine.getSubcommands().get("help").getCommandSpec().usageMessage().header(new String[0])
        .synopsisHeading("Usage: ")
        .description("Prints the usage of a command (help events, help sessions show), or of the tool.");
    return commandLine.execute(args);
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "a command is required");
  }

  /** The store the global options name, opened; the caller closes it. */
  OpenedStore open(StoreOpener.Schema schemaMode) {
    return StoreOpener.open(target(), schemaMode);
  }

  StoreTarget target() {
    if (memory) {
      if (jdbcUrl != null || schema != null || tablePrefix != null) {
        throw new ParameterException(spec.commandLine(),
            "--memory cannot be combined with --jdbc-url, --schema or --table-prefix");
      }
      return StoreTarget.memory();
    }
    return new StoreTarget(jdbcUrl == null ? StoreTarget.DEFAULT_URL : jdbcUrl, schema, tablePrefix);
  }

  /** Where the command's output goes: tables or JSON on standard output. */
  Output output() {
    return new Output(out, json);
  }

  PrintStream err() {
    return err;
  }

  /** Whether a person watches standard error, so that progress can be drawn there. */
  boolean interactive() {
    return interactive;
  }

  private int usageFailure(ParameterException failure, String[] args) {
    err.println("session-store: " + failure.getMessage());
    err.println("Run 'session-store " + commandPath(failure.getCommandLine()) + "--help' for usage.");
    if (verbose) {
      failure.printStackTrace(err);
    }
    return ExitCode.USAGE.code();
  }

  private static String commandPath(CommandLine command) {
    String path = command.getCommandSpec().qualifiedName(" ");
    return path.equals("session-store") ? "" : path.substring("session-store ".length()) + " ";
  }

  private int failure(Exception failure) {
    ExitCode code = exitCode(failure);
    String message = failure instanceof CliFailure ? failure.getMessage() : describe(failure);
    err.println("session-store: " + message);
    if (verbose) {
      failure.printStackTrace(err);
    }
    return code.code();
  }

  /** The exit code a command that failed with {@code failure} ends with. */
  static ExitCode exitCode(Exception failure) {
    if (failure instanceof CliFailure cliFailure) {
      return cliFailure.exitCode();
    }
    if (failure instanceof NotFoundException) {
      return ExitCode.UNKNOWN_SESSION;
    }
    if (failure instanceof ConflictException) {
      return ExitCode.CONFLICT;
    }
    if (failure instanceof InvalidArgumentException) {
      return ExitCode.USAGE;
    }
    if (failure instanceof UnsupportedCapabilityException) {
      return ExitCode.UNSUPPORTED;
    }
    if (failure instanceof StoreFailureException storeFailure && storeFailure.isRetryable()) {
      return ExitCode.UNREACHABLE;
    }
    return ExitCode.FAILURE;
  }

  private static String describe(Exception failure) {
    if (failure instanceof InvalidArgumentException invalid) {
      return "invalid " + invalid.getMessage();
    }
    if (failure instanceof SessionStoreException) {
      return failure.getMessage();
    }
    return "unexpected " + failure;
  }
}
