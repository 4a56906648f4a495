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
 * transcript (with {@code --json}, only the ids of the sessions it wrote). Running it again replaces the demo's
 * sessions of the earlier run (deleted first, and said so on standard error), so it always leaves one conversation.
 */
@Command(name = "demo", description = "Write the scripted demo conversation to the store and print its transcript.")
final class DemoCommand implements Callable<Integer> {

  @ParentCommand
  private SessionStoreCli cli;

  @Override
  public Integer call() throws InterruptedException {
    Output output = cli.output();
    try (OpenedStore opened = cli.open(StoreOpener.Schema.CREATE_OR_UPGRADE)) {
      List<String> earlier = ConversationDemo.sessionsIn(opened.store());
      if (!earlier.isEmpty()) {
        cli.err().println("session-store: replacing the demo's sessions of an earlier run: "
            + String.join(", ", earlier));
        for (int i = earlier.size() - 1; i >= 0; i--) { // the fork before its parent
          opened.store().sessions().delete(earlier.get(i));
        }
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
