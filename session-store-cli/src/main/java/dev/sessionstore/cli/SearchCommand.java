package dev.sessionstore.cli;

import dev.sessionstore.Limits;
import dev.sessionstore.SearchPage;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code search}: one page of the events whose payload holds the words, best first ({@link SearchQuery},
 * {@link SearchPage}), in one session, a tenant's sessions or the whole store, as
 * {@link SearchLines} prints them, with a hint naming the option that reads the next page
 * ({@code more: --after <cursor>}). A store without search fails with {@link ExitCode#UNSUPPORTED}.
 */
@Command(name = "search", description = "Find events by the words of their payload, best first.")
final class SearchCommand implements Callable<Integer> {

  @Mixin
  private HelpOption help;

  @ParentCommand
  private SessionStoreCli cli;

  @Parameters(paramLabel = "<words>", arity = "1..*", description = "What to find: words (every one must match,"
      + " any case), \"a phrase\" in quotes, pre* for words starting with pre.")
  private List<String> words;

  @Option(names = "--session", paramLabel = "<session>", description = "Only this session (id or name).")
  private String session;

  @Option(names = "--tenant", paramLabel = "<tenant>", description = "Only sessions of this tenant.")
  private String tenant;

  @Option(names = "--type", paramLabel = "<type>", description = "Only events of this type (repeatable: any of).")
  private List<String> types = new ArrayList<>();

  @Option(names = "--since", paramLabel = "<instant>", converter = InstantConverter.class,
      description = "Only events at or after this time (ISO-8601, e.g. 2025-01-31T12:00:00Z).")
  private Instant since;

  @Option(names = "--limit", paramLabel = "<n>",
      description = "Hits per page (default: " + SearchQuery.DEFAULT_LIMIT + ", at most " + Limits.MAX_SEARCH_LIMIT
          + ").")
  private int limit = SearchQuery.DEFAULT_LIMIT;

  @Option(names = "--after", paramLabel = "<cursor>", description = "The page after the one that printed it.")
  private String after;

  @Override
  public Integer call() {
    SearchQuery query = query();
    try (OpenedStore opened = cli.open(StoreOpener.Schema.EXISTING)) {
      SessionStore store = opened.store();
      if (session != null) {
        query = query.session(SessionLookup.require(store, session).id());
      }
      SearchPage page = store.search().find(query);
      new SearchLines(cli.output()).print(page);
    }
    return ExitCode.OK.code();
  }

  private SearchQuery query() {
    SearchQuery query = SearchQuery.of(String.join(" ", words)).limit(limit);
    if (tenant != null) {
      query = query.tenant(tenant);
    }
    if (!types.isEmpty()) {
      query = query.types(types.toArray(String[]::new));
    }
    if (since != null) {
      query = query.since(since);
    }
    return after == null ? query : query.after(after);
  }
}
