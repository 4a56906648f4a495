package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ReadDirection;
import dev.sessionstore.Session;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code events}: a session's events as {@link EventQuery} selects them, one page, with a hint naming the option
 * that reads the next one ({@code more: --after <seq>} or {@code more: --before <seq>}); with {@code --follow} every
 * matching event appended afterwards, as {@link Follower} prints them.
 */
@Command(name = "events", description = "Print a session's events; --follow prints new ones as they are appended.")
final class EventsCommand implements Callable<Integer> {

  @Mixin
  private HelpOption help;

  @Spec
  private CommandSpec spec;

  @ParentCommand
  private SessionStoreCli cli;

  @Parameters(paramLabel = "<session>", description = "The session's id or name.")
  private String idOrName;

  @Option(names = "--after", paramLabel = "<seq>", description = "Only events after this seq.")
  private long after;

  @Option(names = "--before", paramLabel = "<seq>", description = "Only events before this seq.")
  private Long before;

  @Option(names = "--first", paramLabel = "<n>", description = "The first n matching events.")
  private Integer first;

  @Option(names = "--last", paramLabel = "<n>", description = "The last n matching events (oldest first).")
  private Integer last;

  @Option(names = "--newest-first", description = "Newest first; with --limit, the newest n.")
  private boolean newestFirst;

  @Option(names = "--limit", paramLabel = "<n>", description = "At most n events, with --newest-first.")
  private Integer limit;

  @Option(names = "--run", paramLabel = "<id>", description = "Only events of this run.")
  private String run;

  @Option(names = "--type", paramLabel = "<type>", description = "Only events of this type (repeatable: any of).")
  private List<String> types = new ArrayList<>();

  @Option(names = "--agent", paramLabel = "<id>", description = "Only events of this agent.")
  private String agent;

  @Option(names = "--since", paramLabel = "<instant>", converter = InstantConverter.class,
      description = "Only events at or after this time (ISO-8601, e.g. 2025-01-31T12:00:00Z).")
  private Instant since;

  @Option(names = {"-f", "--follow"}, description = "Keep printing matching events as they are appended; says so on"
      + " standard error and starts over when the session is deleted, replaced or truncated, and waits for a session"
      + " that does not exist yet.")
  private boolean follow;

  @Override
  public Integer call() {
    EventQuery query = query();
    Output output = cli.output();
    try (OpenedStore opened = cli.open(StoreOpener.Schema.EXISTING)) {
      if (follow) {
        new Follower(opened.store(), idOrName, query, filters(), new EventLines(output), cli.err()).run();
        return ExitCode.OK.code();
      }
      Session session = SessionLookup.require(opened.store(), idOrName);
      print(output, opened.store().events().read(session.id(), query), query.direction());
    }
    return ExitCode.OK.code();
  }

  private static void print(Output output, EventPage page, ReadDirection direction) {
    if (output.json()) {
      ObjectNode result = Records.MAPPER.createObjectNode();
      ArrayNode items = result.putArray("events");
      page.items().forEach(event -> items.add(Records.event(event, Documents.VALUES)));
      if (page.nextCursor().isPresent()) {
        result.put("nextCursor", page.nextCursor().getAsLong());
      } else {
        result.putNull("nextCursor");
      }
      output.json(result);
      return;
    }
    EventLines lines = new EventLines(output);
    lines.print(page.items());
    if (page.isEmpty()) {
      lines.none();
    }
    page.nextCursor().ifPresent(next -> output.line("more: " + nextPageOption(direction) + " " + next));
  }

  /** The option that continues a page in its direction (see {@link EventPage#nextCursor()}). */
  private static String nextPageOption(ReadDirection direction) {
    return direction == ReadDirection.OLDEST_FIRST ? "--after" : "--before";
  }

  private EventQuery query() {
    int limits = (first == null ? 0 : 1) + (last == null ? 0 : 1) + (limit == null ? 0 : 1);
    if (limits > 1) {
      throw new ParameterException(spec.commandLine(), "--first, --last and --limit exclude each other");
    }
    if (limit != null && !newestFirst) {
      throw new ParameterException(spec.commandLine(), "--limit goes with --newest-first; use --first or --last");
    }
    if (newestFirst && (first != null || last != null)) {
      throw new ParameterException(spec.commandLine(), "--newest-first goes with --limit, not --first or --last");
    }
    if (follow && (newestFirst || before != null)) {
      throw new ParameterException(spec.commandLine(), "--follow reads forward: not with --newest-first or --before");
    }
    EventQuery query = filters().after(after);
    if (before != null) {
      query = query.before(before);
    }
    if (first != null) {
      query = query.first(first);
    }
    if (last != null) {
      query = query.last(last);
    }
    if (newestFirst) {
      query = query.newestFirst();
    }
    return limit == null ? query : query.limit(limit);
  }

  /** The filters alone, without seq bounds or limit: what {@code --follow} keeps applying. */
  private EventQuery filters() {
    EventQuery query = EventQuery.all();
    if (run != null) {
      query = query.runId(run);
    }
    if (!types.isEmpty()) {
      query = query.types(types.toArray(String[]::new));
    }
    if (agent != null) {
      query = query.agentId(agent);
    }
    return since == null ? query : query.since(since);
  }
}
