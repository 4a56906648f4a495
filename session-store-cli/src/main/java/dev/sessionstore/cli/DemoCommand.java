package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.demo.ConversationDemo;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * {@code demo}: writes the scripted agent conversation of session-store-demo to the chosen store and prints its
 * transcript (with {@code --json}, only the ids of the sessions it wrote). Running it again replaces the demo's
 * sessions of the earlier run (deleted first, and said so on standard error), so it always leaves one conversation.
 * It ends with three commands to try next on the same store (with {@code --json}, as {@code tryNext}).
 */
@Command(name = "demo", description = "Write the scripted demo conversation to the store and print its transcript.")
final class DemoCommand implements Callable<Integer> {

  /** How the commands to try next start: the launcher script at the repository root. */
  private static final String TOOL = "./session-store";

  @Mixin
  private HelpOption help;

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
      List<String[]> next = tryNext(opened.target());
      if (output.json()) {
        ObjectNode written = Records.MAPPER.createObjectNode();
        written.putArray("sessions").add(ConversationDemo.SESSION_ID).add(ConversationDemo.FORK_ID);
        ArrayNode commands = written.putArray("tryNext");
        next.forEach(command -> commands.add(command[0]));
        output.json(written);
      } else {
        printTryNext(output, opened.target(), next);
      }
    }
    return ExitCode.OK.code();
  }

  /**
   * Three commands that read what the demo wrote, each with what it shows, on the store the demo wrote to (the
   * default file when that store was the in-memory one, gone at exit).
   */
  private static List<String[]> tryNext(StoreTarget target) {
    String store = target.isMemory() ? "" : target.options();
    return List.of(
        new String[] {TOOL + " events " + ConversationDemo.SESSION_ID + " --last 3" + store,
            "the end of the conversation"},
        new String[] {TOOL + " sessions show " + ConversationDemo.FORK_ID + store,
            "the fork: where it branched off, its runs and summary"},
        new String[] {TOOL + " events " + ConversationDemo.SESSION_ID + " --follow" + store,
            "new events as they land: run the demo again in another terminal"});
  }

  private static void printTryNext(Output output, StoreTarget target, List<String[]> next) {
    output.line("");
    output.line(target.isMemory()
        ? "Try next, after `" + TOOL + " demo` without --memory (the in-memory store is gone when this command ends):"
        : "Try next:");
    int width = next.stream().mapToInt(command -> command[0].length()).max().orElse(0);
    next.forEach(command -> output.line(String.format("  %-" + width + "s   # %s", command[0], command[1])));
  }
}
