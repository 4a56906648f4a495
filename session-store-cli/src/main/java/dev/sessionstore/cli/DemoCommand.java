package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.demo.ConversationDemo;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * {@code demo}: writes the scripted agent conversation of session-store-demo to the chosen store and prints its
 * transcript (with {@code --json}, only the ids of the sessions it wrote). The store must not hold the demo's
 * sessions yet ({@link ExitCode#CONFLICT} otherwise).
 */
@Command(name = "demo", description = "Write the scripted demo conversation to the store and print its transcript.")
final class DemoCommand implements Callable<Integer> {

  @ParentCommand
  private SessionStoreCli cli;

  @Override
  public Integer call() throws InterruptedException {
    Output output = cli.output();
    try (OpenedStore opened = cli.open(StoreOpener.Schema.CREATE_OR_UPGRADE)) {
      List<String> taken = ConversationDemo.sessionsIn(opened.store());
      if (!taken.isEmpty()) {
        throw new CliFailure(ExitCode.CONFLICT, opened.target().describe() + " already holds the demo's sessions "
            + String.join(", ", taken) + "; run the demo on another store, or delete them first");
      }
      PrintStream transcript = output.json()
          ? new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8)
          : output.stream();
      ConversationDemo.run(opened.store(), opened.target().describe(), transcript);
      if (output.json()) {
        ObjectNode written = Records.MAPPER.createObjectNode();
        written.putArray("sessions").add(ConversationDemo.SESSION_ID).add(ConversationDemo.FORK_ID);
        output.json(written);
      }
    }
    return ExitCode.OK.code();
  }
}
