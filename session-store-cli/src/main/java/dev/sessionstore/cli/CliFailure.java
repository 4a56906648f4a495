package dev.sessionstore.cli;

/**
 * A failure the tool reports as one line on standard error and exits with {@link #exitCode()}. Its message is
 * written for the person at the terminal: what failed and, where there is one, what to do.
 */
final class CliFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final ExitCode exitCode;

  CliFailure(ExitCode exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  CliFailure(ExitCode exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  ExitCode exitCode() {
    return exitCode;
  }
}
