package dev.sessionstore.memory.internal;

import dev.sessionstore.Chapter;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Revival;
import dev.sessionstore.Summaries;
import dev.sessionstore.Summary;
import dev.sessionstore.spi.Failures;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The summaries of an in-memory store, kept by their session ordered by {@code toSeq}. Revival and chapters read the
 * summaries and the log in one view under the session's lock, and slice the log by seq without replaying it.
 */
final class MemorySummaries implements Summaries {

  private final StoreContext context;
  private final SessionRegistry registry;

  MemorySummaries(StoreContext context, SessionRegistry registry) {
    this.context = context;
    this.registry = registry;
  }

  @Override
  public Summary put(String sessionId, NewSummary summary) {
    return registry.withExisting(sessionId, state -> {
      Summary stored = check(state, summary, state.log.lastSeq(), context.now());
      state.summaries.put(stored.toSeq(), stored);
      return stored;
    }, () -> {
      throw Failures.sessionNotFound(sessionId);
    });
  }

  /**
   * The summary to store for {@code summary} at {@code now}, checked against a log ending at {@code lastSeq}.
   *
   * @throws InvalidArgumentException if its {@code toSeq} is past {@code lastSeq}
   */
  static Summary check(SessionState state, NewSummary summary, long lastSeq, Instant now) {
    if (summary.toSeq() > lastSeq) {
      throw Failures.summaryPastLastSeq(state.id, summary.toSeq(), lastSeq);
    }
    return new Summary(state.id, summary.fromSeq(), summary.toSeq(), summary.content(), summary.version(), now);
  }

  @Override
  public Optional<Summary> latest(String sessionId) {
    return registry.withExisting(sessionId, state -> latestOf(state), Optional::empty);
  }

  @Override
  public List<Summary> list(String sessionId) {
    return registry.withExisting(sessionId, state -> List.copyOf(state.summaries.values()), List::of);
  }

  @Override
  public Revival revive(String sessionId) {
    return revival(sessionId, null);
  }

  @Override
  public Revival revive(String sessionId, String agentId) {
    return revival(sessionId, agentId);
  }

  private Revival revival(String sessionId, String agentId) {
    return registry.withExisting(sessionId, state -> {
      Optional<Summary> latest = latestOf(state);
      long afterSeq = latest.map(Summary::toSeq).orElse(0L);
      long lastSeq = state.log.lastSeq();
      return new Revival(latest, ofAgent(state.log.range(afterSeq, lastSeq), agentId), lastSeq);
    }, () -> new Revival(Optional.empty(), List.of(), 0));
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq) {
    return chapterOf(sessionId, summaryToSeq, null);
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq, String agentId) {
    return chapterOf(sessionId, summaryToSeq, agentId);
  }

  private Optional<Chapter> chapterOf(String sessionId, long summaryToSeq, String agentId) {
    return registry.withExisting(sessionId, state -> {
      Summary summary = state.summaries.get(summaryToSeq);
      if (summary == null) {
        return Optional.<Chapter>empty();
      }
      Optional<Summary> previous = Optional.ofNullable(state.summaries.lowerEntry(summaryToSeq))
          .map(Map.Entry::getValue);
      long afterSeq = previous.map(Summary::toSeq).orElse(0L);
      return Optional.of(new Chapter(summary, previous, ofAgent(state.log.range(afterSeq, summaryToSeq), agentId)));
    }, Optional::empty);
  }

  /** The events of {@code agentId}, or all of them when it is {@code null}. */
  private static List<Event> ofAgent(List<Event> events, String agentId) {
    return agentId == null ? events : events.stream().filter(event -> agentId.equals(event.agentId())).toList();
  }

  private static Optional<Summary> latestOf(SessionState state) {
    return state.summaries.isEmpty() ? Optional.empty() : Optional.of(state.summaries.lastEntry().getValue());
  }
}
