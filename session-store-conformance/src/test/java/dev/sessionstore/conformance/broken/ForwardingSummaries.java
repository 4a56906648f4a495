package dev.sessionstore.conformance.broken;

import dev.sessionstore.Chapter;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Revival;
import dev.sessionstore.Summaries;
import dev.sessionstore.Summary;
import java.util.List;
import java.util.Optional;

/** Forwards every call to a delegate; broken stores override the one method they break. */
public class ForwardingSummaries implements Summaries {

  protected final Summaries delegate;

  public ForwardingSummaries(Summaries delegate) {
    this.delegate = delegate;
  }

  @Override
  public Summary put(String sessionId, NewSummary summary) {
    return delegate.put(sessionId, summary);
  }

  @Override
  public Optional<Summary> latest(String sessionId) {
    return delegate.latest(sessionId);
  }

  @Override
  public List<Summary> list(String sessionId) {
    return delegate.list(sessionId);
  }

  @Override
  public Revival revive(String sessionId) {
    return delegate.revive(sessionId);
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq) {
    return delegate.chapter(sessionId, summaryToSeq);
  }

  @Override
  public Revival revive(String sessionId, String agentId) {
    return delegate.revive(sessionId, agentId);
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq, String agentId) {
    return delegate.chapter(sessionId, summaryToSeq, agentId);
  }
}
