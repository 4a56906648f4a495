package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * {@code migrate}: creates the store's tables, or upgrades them to the version this tool needs, in one transaction
 * (the JDBC adapter's own migration, safe while other processes use the database). Running it again does nothing.
 */
@Command(name = "migrate", description = "Create the store's tables, or upgrade them to this version.")
final class MigrateCommand implements Callable<Integer> {

  @Mixin
  private HelpOption help;

  @ParentCommand
  private SessionStoreCli cli;

  @Override
  public Integer call() {
    Output output = cli.output();
    try (OpenedStore opened = cli.open(StoreOpener.Schema.CREATE_OR_UPGRADE)) {
      String target = opened.target().describe();
      if (output.json()) {
        ObjectNode result = Records.MAPPER.createObjectNode().put("store", target).put("schema", "current");
        output.json(result);
      } else {
        output.line(opened.target().isMemory()
            ? "the in-memory store has no tables to migrate"
            : "the tables of " + target + " are current");
      }
    }
    return ExitCode.OK.code();
  }
}
