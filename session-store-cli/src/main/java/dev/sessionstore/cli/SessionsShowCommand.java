package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Capability;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code sessions show}: one session, found by id or name, with its last seq, runs, pending tool calls and latest
 * summary.
 */
@Command(name = "show", description = "Show one session, by id or by name.")
final class SessionsShowCommand implements Callable<Integer> {

  @Mixin
  private HelpOption help;

  @ParentCommand
  private SessionsCommand sessions;

  @Parameters(paramLabel = "<session>", description = "The session's id or name.")
  private String idOrName;

  @Override
  public Integer call() {
    Output output = sessions.cli().output();
    try (OpenedStore opened = sessions.cli().open(StoreOpener.Schema.EXISTING)) {
      SessionStore store = opened.store();
      Session session = SessionLookup.require(store, idOrName);
      long lastSeq = store.events().lastSeq(session.id());
      List<Run> runs = store.runs().list(session.id());
      List<ToolCall> pending = store.supports(Capability.TOOL_CALLS)
          ? store.toolCalls().pending(session.id()) : List.of();
      Summary latest = store.supports(Capability.SUMMARIES)
          ? store.summaries().latest(session.id()).orElse(null) : null;
      if (output.json()) {
        ObjectNode result = Records.session(session, Documents.VALUES).put("lastSeq", lastSeq);
        ArrayNode runNodes = result.putArray("runs");
        runs.forEach(run -> runNodes.add(Records.run(run, Documents.VALUES)));
        ArrayNode pendingNodes = result.putArray("pendingToolCalls");
        pending.forEach(call -> pendingNodes.add(Records.toolCall(call, Documents.VALUES)));
        result.set("latestSummary", latest == null ? null : Records.summary(latest, Documents.VALUES));
        output.json(result);
        return ExitCode.OK.code();
      }
      output.field("id", session.id());
      output.field("name", session.name());
      output.field("status", session.status());
      output.field("agent", session.agentId());
      output.field("tenant", session.tenant());
      output.field("settings", session.settings());
      output.field("metadata", Records.metadata(session));
      output.field("forked from", session.forkOrigin()
          .map(origin -> origin.sessionId() + " @ seq " + origin.seq()).orElse(null));
      output.field("created", session.createdAt());
      output.field("updated", session.updatedAt());
      output.field("expires", session.expiresAt());
      output.field("events", lastSeq);
      output.field("latest summary", latest == null ? null
          : "seqs " + latest.fromSeq() + ".." + latest.toSeq() + " (version " + latest.version() + ")");
      output.line("");
      Table runTable = new Table("RUN", "STATUS", "CREATED", "UPDATED");
      runs.forEach(run -> runTable.row(run.id(), run.status(), run.createdAt(), run.updatedAt()));
      output.table(runTable);
      output.line("");
      Table callTable = new Table("PENDING TOOL CALL", "TOOL", "RUN", "DEADLINE", "ARGUMENTS");
      pending.forEach(call -> callTable.row(call.id(), call.toolName(), call.runId(), call.deadline(),
          call.arguments()));
      output.table(callTable);
    }
    return ExitCode.OK.code();
  }
}
