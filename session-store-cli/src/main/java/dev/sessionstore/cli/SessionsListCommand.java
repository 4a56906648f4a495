package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionStore;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code sessions list}: one page of sessions, filtered as {@link SessionQuery} allows, in the store's stable order
 * (creation time, then id). The next page's cursor is printed when more remain.
 */
@Command(name = "list", description = "List sessions, filtered and paged.")
final class SessionsListCommand implements Callable<Integer> {

  private static final int DEFAULT_LIMIT = 100;

  @Mixin
  private HelpOption help;

  @ParentCommand
  private SessionsCommand sessions;

  @Option(names = "--status", paramLabel = "<status>", description = "Only sessions with this status.")
  private String status;

  @Option(names = "--agent", paramLabel = "<id>", description = "Only sessions of this agent.")
  private String agent;

  @Option(names = "--tenant", paramLabel = "<tenant>", description = "Only sessions of this tenant.")
  private String tenant;

  @Option(names = "--metadata", paramLabel = "<key=value>",
      description = "Only sessions whose metadata has this entry (repeatable; all must match).")
  private Map<String, String> metadata = new LinkedHashMap<>();

  @Option(names = "--expires-before", paramLabel = "<instant>", converter = InstantConverter.class,
      description = "Only sessions whose expiry is set and before this instant (ISO-8601, e.g. 2026-11-29T00:00:00Z).")
  private Instant expiresBefore;

  @Option(names = "--limit", paramLabel = "<n>", description = "Sessions per page (default: " + DEFAULT_LIMIT + ").")
  private int limit = DEFAULT_LIMIT;

  @Option(names = "--cursor", paramLabel = "<cursor>", description = "Continue after the page that printed it.")
  private String cursor;

  @Override
  public Integer call() {
    Output output = sessions.cli().output();
    try (OpenedStore opened = sessions.cli().open(StoreOpener.Schema.EXISTING)) {
      SessionStore store = opened.store();
      SessionPage page = store.sessions().list(query());
      if (output.json()) {
        ObjectNode result = Records.MAPPER.createObjectNode();
        ArrayNode items = result.putArray("sessions");
        page.items().forEach(session -> items.add(Records.session(session, Documents.VALUES)
            .put("lastSeq", store.events().lastSeq(session.id()))));
        result.put("nextCursor", page.nextCursor().orElse(null));
        output.json(result);
      } else {
        Table table = new Table("ID", "NAME", "STATUS", "AGENT", "TENANT", "EVENTS", "CREATED", "FORKED FROM");
        for (Session session : page.items()) {
          table.row(session.id(), session.name(), session.status(), session.agentId(), session.tenant(),
              store.events().lastSeq(session.id()), session.createdAt(),
              session.forkOrigin().map(origin -> origin.sessionId() + " @ " + origin.seq()).orElse(null));
        }
        output.table(table);
        page.nextCursor().ifPresent(next -> output.line("more: --cursor " + next));
      }
    }
    return ExitCode.OK.code();
  }

  private SessionQuery query() {
    SessionQuery query = SessionQuery.all().limit(limit);
    if (status != null) {
      query = query.status(SessionStatus.of(status));
    }
    if (agent != null) {
      query = query.agentId(agent);
    }
    if (tenant != null) {
      query = query.tenant(tenant);
    }
    for (Map.Entry<String, String> entry : metadata.entrySet()) {
      query = query.metadata(entry.getKey(), entry.getValue());
    }
    if (expiresBefore != null) {
      query = query.expiresBefore(expiresBefore);
    }
    return cursor == null ? query : query.after(cursor);
  }
}
