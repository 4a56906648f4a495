package dev.sessionstore.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code sessions}: the group of {@code sessions list} and {@code sessions show}. */
@Command(name = "sessions", description = "List sessions or show one.",
    subcommands = {SessionsListCommand.class, SessionsShowCommand.class})
final class SessionsCommand implements Runnable {

  @Mixin
  private HelpOption help;

  @Spec
  private CommandSpec spec;

  @ParentCommand
  private SessionStoreCli cli;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "a subcommand is required: list or show");
  }

  SessionStoreCli cli() {
    return cli;
  }
}
