package dev.sessionstore.spi;

import dev.sessionstore.Chapter;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Revival;
import dev.sessionstore.Summaries;
import dev.sessionstore.Summary;
import java.util.List;
import java.util.Optional;

/**
 * {@link Summaries} that forwards every method to a delegate through an {@link Interception}; a decorator overrides
 * the methods whose values it changes and calls {@code super} to forward. Thread-safe when the delegate and the
 * interception are.
 */
public class ForwardingSummaries implements Summaries {

  private final Summaries delegate;
  private final Interception interception;

  /** Forwards to {@code delegate}, every call through {@code interception}. */
  public ForwardingSummaries(Summaries delegate, Interception interception) {
    this.delegate = Arguments.requireNonNull("delegate", delegate);
    this.interception = Arguments.requireNonNull("interception", interception);
  }

  @Override
  public Summary put(String sessionId, NewSummary summary) {
    return interception.around("summaries.put", sessionId, () -> delegate.put(sessionId, summary));
  }

  @Override
  public Optional<Summary> latest(String sessionId) {
    return interception.around("summaries.latest", sessionId, () -> delegate.latest(sessionId));
  }

  @Override
  public List<Summary> list(String sessionId) {
    return interception.around("summaries.list", sessionId, () -> delegate.list(sessionId));
  }

  @Override
  public Revival revive(String sessionId) {
    return interception.around("summaries.revive", sessionId, () -> delegate.revive(sessionId));
  }

  @Override
  public Revival revive(String sessionId, String agentId) {
    return interception.around("summaries.revive", sessionId, () -> delegate.revive(sessionId, agentId));
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq) {
    return interception.around("summaries.chapter", sessionId, () -> delegate.chapter(sessionId, summaryToSeq));
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq, String agentId) {
    return interception.around("summaries.chapter", sessionId,
        () -> delegate.chapter(sessionId, summaryToSeq, agentId));
  }
}
