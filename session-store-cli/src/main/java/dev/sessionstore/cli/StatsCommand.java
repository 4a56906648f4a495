package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Capability;
import dev.sessionstore.Run;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * {@code stats}: how much the store holds: sessions by status, events, runs and tool calls by status, summaries,
 * checkpoints (of sessions and global), model-call audit rows, and the size of the store's own tables with their
 * indexes ({@link StoreSize}, not the whole database). It reads every session's archive once, so it takes as long as an export without the writing.
 */
@Command(name = "stats", description = "Count sessions, events, runs, tool calls, summaries and checkpoints.")
final class StatsCommand implements Callable<Integer> {

  private static final int PAGE = 500;

  @Mixin
  private HelpOption help;

  @ParentCommand
  private SessionStoreCli cli;

  @Override
  public Integer call() {
    try (OpenedStore opened = cli.open(StoreOpener.Schema.EXISTING)) {
      SessionStore store = opened.store();
      if (!store.supports(Capability.ARCHIVES)) {
        throw new CliFailure(ExitCode.FAILURE, opened.target().describe() + " cannot be read whole (no archives)");
      }
      Counts counts = new Counts();
      SessionQuery query = SessionQuery.all().limit(PAGE);
      while (true) {
        SessionPage page = store.sessions().list(query);
        page.items().forEach(session -> store.archives().export(session.id()).ifPresent(counts::add));
        if (page.nextCursor().isEmpty()) {
          break;
        }
        query = SessionQuery.all().limit(PAGE).after(page.nextCursor().get());
      }
      counts.globalCheckpoints = store.archives().globalCheckpoints().size();
      print(counts, opened.target().describe(), StoreSize.of(opened));
    }
    return ExitCode.OK.code();
  }

  private void print(Counts counts, String target, Optional<StoreSize> size) {
    Output output = cli.output();
    if (output.json()) {
      ObjectNode result = Records.MAPPER.createObjectNode().put("store", target);
      result.put("sessions", counts.sessions).set("sessionsByStatus", Records.counts(counts.sessionsByStatus));
      result.put("events", counts.events);
      result.put("runs", counts.runs).set("runsByStatus", Records.counts(counts.runsByStatus));
      result.put("toolCalls", counts.toolCalls).set("toolCallsByStatus", Records.counts(counts.toolCallsByStatus));
      result.put("summaries", counts.summaries);
      result.put("checkpoints", counts.checkpoints);
      result.put("globalCheckpoints", counts.globalCheckpoints);
      result.put("modelCalls", counts.modelCalls);
      result.put("payloadBytes", counts.payloadChars);
      size.ifPresent(measured -> result.put("sizeBytes", measured.bytes()).put("sizeTables", measured.tables()));
      output.json(result);
      return;
    }
    output.field("store", target);
    output.field("sessions", counts.sessions + byStatus(counts.sessionsByStatus));
    output.field("events", counts.events + "  (payloads: " + counts.payloadChars + " chars)");
    output.field("runs", counts.runs + byStatus(counts.runsByStatus));
    output.field("tool calls", counts.toolCalls + byStatus(counts.toolCallsByStatus));
    output.field("summaries", counts.summaries);
    output.field("checkpoints", counts.checkpoints + " of sessions, " + counts.globalCheckpoints + " global");
    output.field("model calls", counts.modelCalls);
    output.field("size", size.map(measured -> measured.bytes() + " bytes in the store's " + measured.tables()
        + " tables with their indexes").orElse(null));
  }

  /** {@code "  {active=2, ended=1}"}, or nothing when there is nothing to count. */
  private static String byStatus(Map<String, Long> counts) {
    return counts.isEmpty() ? "" : "  " + counts;
  }

  /** Running totals. */
  private static final class Counts {

    private long sessions;
    private final Map<String, Long> sessionsByStatus = new TreeMap<>();
    private long events;
    private long payloadChars;
    private long runs;
    private final Map<String, Long> runsByStatus = new TreeMap<>();
    private long toolCalls;
    private final Map<String, Long> toolCallsByStatus = new TreeMap<>();
    private long summaries;
    private long checkpoints;
    private long globalCheckpoints;
    private long modelCalls;

    void add(SessionArchive archive) {
      sessions++;
      sessionsByStatus.merge(archive.session().status().value(), 1L, Long::sum);
      events += archive.events().size();
      archive.events().forEach(event -> payloadChars += event.payload().text().length());
      runs += archive.runs().size();
      for (Run run : archive.runs()) {
        runsByStatus.merge(run.status().name(), 1L, Long::sum);
      }
      toolCalls += archive.toolCalls().size();
      for (ToolCall call : archive.toolCalls()) {
        toolCallsByStatus.merge(call.status().name(), 1L, Long::sum);
      }
      summaries += archive.summaries().size();
      checkpoints += archive.checkpoints().size();
      modelCalls += archive.modelCalls().size();
    }
  }
}
