package dev.sessionstore.cli;

import picocli.CommandLine.Option;

/**
 * The {@code -h, --help} option that every command and subcommand mixes in: it prints the command's usage (the
 * {@code Usage:} line, its description, options and subcommands) on standard output and exits with 0, whatever else
 * the command line holds.
 */
final class HelpOption {

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  private boolean requested;
}
