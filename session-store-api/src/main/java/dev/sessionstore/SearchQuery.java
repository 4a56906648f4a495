package dev.sessionstore;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What to find with {@link Search#find}: terms that must all match, where to look, which events count, and which page.
 *
 * <p><b>What is searched.</b> An event's searched text is every JSON string value of its payload (object members'
 * values and array elements, at any depth, in document order); keys, numbers, booleans and the event's other fields
 * are not searched. Each string value is read into words by {@link SearchWords}, the same rule the query's text is
 * read with. An event matches when it matches every term ({@link SearchTerm}): a word, a phrase within one string
 * value, or a prefix.
 *
 * <p><b>Where.</b> Unscoped, a query searches every session of the store. {@link #session(String)} narrows it to one
 * session, {@link #tenant(String)} to one tenant's sessions (needs {@link Capability#TENANTS}), and
 * {@link #sessionMetadata(String, String)} to sessions whose metadata holds the pair (a user's sessions, when the
 * application records the user there, as the ADK bridge does). A fork shows its parent's events up to its fork point
 * as its own: found through the fork, they come back with the fork's session id, and a store-wide search finds such an
 * event once per session that shows it.
 *
 * <p><b>Which events.</b> Optional filters, all of which must hold: event types (any of them), run, agent, and a
 * timestamp range ({@code since} inclusive, {@code until} exclusive).
 *
 * <p><b>Order and pages.</b> See {@link SearchPage}: by score, then newest first; {@link #limit(int)} hits a page
 * (default {@link #DEFAULT_LIMIT}, at most {@link Limits#MAX_SEARCH_LIMIT}), continued with the previous page's
 * {@link SearchPage#nextCursor()} passed to {@link #after(String)}.
 *
 * <p>Immutable; each builder method returns a copy. Start from {@link #of(String)}:
 * <pre>{@code
 * store.search().find(SearchQuery.of("invoice \"not paid\"").sessionMetadata("user", "alice").limit(10))
 * }</pre>
 *
 * @param terms           the terms, every one of which an event must match; 1 to {@link Limits#MAX_SEARCH_TERMS},
 *                        no two equal
 * @param sessionId       only this session's events, or {@code null}
 * @param tenant          only the events of this tenant's sessions, or {@code null}
 * @param sessionMetadata only the events of sessions whose metadata holds every pair; empty for any session
 * @param types           only events of any of these types; empty for all
 * @param runId           only events of this run, or {@code null}
 * @param agentId         only events of this agent, or {@code null}
 * @param since           only events at or after this instant, or {@code null}
 * @param until           only events before this instant, or {@code null}
 * @param limit           most hits on a page, 1 to {@link Limits#MAX_SEARCH_LIMIT}
 * @param cursor          where the page starts: a {@link SearchPage#nextCursor()} of the same query, or {@code null}
 *                        for the first page
 */
public record SearchQuery(
    List<SearchTerm> terms,
    String sessionId,
    String tenant,
    Map<String, String> sessionMetadata,
    Set<String> types,
    String runId,
    String agentId,
    Instant since,
    Instant until,
    int limit,
    String cursor) {

  /** Hits on a page when {@link #limit(int)} is not called. */
  public static final int DEFAULT_LIMIT = 20;

  /** Longest cursor a search hands out, in chars. */
  public static final int MAX_CURSOR_LENGTH = 1024;

  /**
   * Builds the record, checking its members as described on the type.
   *
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public SearchQuery {
    terms = List.copyOf(Checks.requireNonNull("terms", terms));
    if (terms.isEmpty()) {
      throw new InvalidArgumentException("terms", "must hold at least one term");
    }
    if (terms.size() > Limits.MAX_SEARCH_TERMS) {
      throw new InvalidArgumentException("terms", "more than " + Limits.MAX_SEARCH_TERMS + " terms ("
          + terms.size() + ")");
    }
    if (new LinkedHashSet<>(terms).size() != terms.size()) {
      throw new InvalidArgumentException("terms", "holds the same term twice");
    }
    Checks.optionalKey("sessionId", sessionId);
    Checks.optionalKey("tenant", tenant);
    Checks.requireNonNull("sessionMetadata", sessionMetadata).forEach((key, value) -> {
      Checks.requireKey("sessionMetadata key", key);
      Checks.requireText("sessionMetadata[" + key + "]", Checks.requireNonNull("sessionMetadata[" + key + "]", value),
          Limits.MAX_METADATA_VALUE_LENGTH);
    });
    sessionMetadata = Map.copyOf(sessionMetadata);
    Checks.requireNonNull("types", types).forEach(type -> Checks.requireKey("types", type));
    types = Set.copyOf(types);
    Checks.optionalKey("runId", runId);
    Checks.optionalKey("agentId", agentId);
    since = Checks.optionalInstant("since", since);
    until = Checks.optionalInstant("until", until);
    if (since != null && until != null && !since.isBefore(until)) {
      throw new InvalidArgumentException("until", "must be after since");
    }
    if (limit < 1 || limit > Limits.MAX_SEARCH_LIMIT) {
      throw new InvalidArgumentException("limit", "must be 1 to " + Limits.MAX_SEARCH_LIMIT + " (" + limit + ")");
    }
    if (cursor != null && (cursor.isBlank() || cursor.length() > MAX_CURSOR_LENGTH)) {
      throw new InvalidArgumentException("cursor", "is not a cursor a search handed out");
    }
  }

  /**
   * A query for {@code text}, store-wide, first page of {@link #DEFAULT_LIMIT} hits. The text is read as terms:
   * {@code "…"} encloses a phrase; elsewhere each word ({@link SearchWords}) is a term, and a word followed directly
   * by {@code *} is a prefix. {@code invoice "not paid" refund*} has three terms. Repeated terms count once.
   *
   * @throws InvalidArgumentException naming {@code text} if it is null, longer than
   *                                  {@link Limits#MAX_SEARCH_TEXT_LENGTH} chars, or holds no word, or naming
   *                                  {@code terms} if it holds more than {@link Limits#MAX_SEARCH_TERMS} terms
   */
  public static SearchQuery of(String text) {
    Checks.requireText("text", Checks.requireNonNull("text", text), Limits.MAX_SEARCH_TEXT_LENGTH);
    List<SearchTerm> terms = new ArrayList<>(parse(text));
    if (terms.isEmpty()) {
      throw new InvalidArgumentException("text", "holds no word to search for");
    }
    return new SearchQuery(List.copyOf(new LinkedHashSet<>(terms)), null, null, Map.of(), Set.of(), null, null, null,
        null, DEFAULT_LIMIT, null);
  }

  private static List<SearchTerm> parse(String text) {
    List<SearchTerm> terms = new ArrayList<>();
    String[] quoted = text.split("\"", -1);
    for (int part = 0; part < quoted.length; part++) {
      if (part % 2 == 1 && part < quoted.length - 1) {
        List<String> words = SearchWords.of(quoted[part]);
        if (!words.isEmpty()) {
          terms.add(new SearchTerm(words, false));
        }
      } else {
        for (String chunk : quoted[part].trim().split("\\s+")) {
          List<String> words = SearchWords.of(chunk);
          for (int i = 0; i < words.size(); i++) {
            boolean last = i == words.size() - 1;
            terms.add(new SearchTerm(List.of(words.get(i)), last && chunk.endsWith("*")));
          }
        }
      }
    }
    return terms;
  }

  /** The terms in the syntax {@link #of(String)} reads, separated by spaces. */
  public String text() {
    return terms.stream().map(SearchTerm::syntax).collect(Collectors.joining(" "));
  }

  /**
   * A copy that finds only events of session {@code sessionId}.
   * @throws InvalidArgumentException naming {@code sessionId} if it is not a valid key
   */
  public SearchQuery session(String sessionId) {
    return new SearchQuery(terms, Checks.requireKey("sessionId", sessionId), tenant, sessionMetadata, types, runId,
        agentId, since, until, limit, cursor);
  }

  /**
   * A copy that finds only events of sessions of {@code tenant}.
   * @throws InvalidArgumentException naming {@code tenant} if it is not a valid key
   */
  public SearchQuery tenant(String tenant) {
    return new SearchQuery(terms, sessionId, Checks.requireKey("tenant", tenant), sessionMetadata, types, runId,
        agentId, since, until, limit, cursor);
  }

  /**
   * A copy that finds only events of sessions whose metadata holds {@code key} = {@code value}, besides the pairs
   * already asked for.
   * @throws InvalidArgumentException naming {@code sessionMetadata} if the key is not a valid key or the value null
   */
  public SearchQuery sessionMetadata(String key, String value) {
    Map<String, String> pairs = new TreeMap<>(sessionMetadata);
    pairs.put(Checks.requireKey("sessionMetadata key", key), Checks.requireNonNull("sessionMetadata[" + key + "]",
        value));
    return new SearchQuery(terms, sessionId, tenant, pairs, types, runId, agentId, since, until, limit, cursor);
  }

  /**
   * A copy that finds only events of any of these types.
   * @throws InvalidArgumentException naming {@code types} if it is null or holds an invalid key
   */
  public SearchQuery types(String... types) {
    Checks.requireNonNull("types", types);
    return new SearchQuery(terms, sessionId, tenant, sessionMetadata, new LinkedHashSet<>(Arrays.asList(types)), runId,
        agentId, since, until, limit, cursor);
  }

  /**
   * A copy that finds only events of run {@code runId}.
   * @throws InvalidArgumentException naming {@code runId} if it is not a valid key
   */
  public SearchQuery runId(String runId) {
    return new SearchQuery(terms, sessionId, tenant, sessionMetadata, types, Checks.requireKey("runId", runId),
        agentId, since, until, limit, cursor);
  }

  /**
   * A copy that finds only events of agent {@code agentId}.
   * @throws InvalidArgumentException naming {@code agentId} if it is not a valid key
   */
  public SearchQuery agentId(String agentId) {
    return new SearchQuery(terms, sessionId, tenant, sessionMetadata, types, runId,
        Checks.requireKey("agentId", agentId), since, until, limit, cursor);
  }

  /**
   * A copy that finds only events whose timestamp is at or after {@code since}.
   * @throws InvalidArgumentException naming {@code since} if it is null, or {@code until} if the range is empty
   */
  public SearchQuery since(Instant since) {
    return new SearchQuery(terms, sessionId, tenant, sessionMetadata, types, runId, agentId,
        Checks.requireNonNull("since", since), until, limit, cursor);
  }

  /**
   * A copy that finds only events whose timestamp is before {@code until}.
   * @throws InvalidArgumentException naming {@code until} if it is null or not after {@code since}
   */
  public SearchQuery until(Instant until) {
    return new SearchQuery(terms, sessionId, tenant, sessionMetadata, types, runId, agentId, since,
        Checks.requireNonNull("until", until), limit, cursor);
  }

  /**
   * A copy with at most {@code limit} hits a page.
   * @throws InvalidArgumentException naming {@code limit} if it is not 1 to {@link Limits#MAX_SEARCH_LIMIT}
   */
  public SearchQuery limit(int limit) {
    return new SearchQuery(terms, sessionId, tenant, sessionMetadata, types, runId, agentId, since, until, limit,
        cursor);
  }

  /**
   * A copy that returns the page after the one whose {@link SearchPage#nextCursor()} is {@code cursor}.
   * @throws InvalidArgumentException naming {@code cursor} if it is null, blank or longer than any cursor; a cursor
   *                                  of another query fails when the query runs
   */
  public SearchQuery after(String cursor) {
    return new SearchQuery(terms, sessionId, tenant, sessionMetadata, types, runId, agentId, since, until, limit,
        Checks.requireNonNull("cursor", cursor));
  }

  /** Whether {@code event}'s own fields pass this query's event filters (types, run, agent, time range). */
  public boolean admits(Event event) {
    return (types.isEmpty() || types.contains(event.type()))
        && (runId == null || runId.equals(event.runId()))
        && (agentId == null || agentId.equals(event.agentId()))
        && (since == null || !event.timestamp().isBefore(since))
        && (until == null || event.timestamp().isBefore(until));
  }
}
