package dev.sessionstore.spi;

import dev.sessionstore.Chapter;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Revival;
import dev.sessionstore.Summaries;
import dev.sessionstore.Summary;
import java.util.List;
import java.util.Optional;

/** The summaries of a {@link ValidatingSessionStore}: the closed check and the argument rules, then the adapter's. */
final class ValidatingSummaries implements Summaries {

  private final OpenGate gate;
  private final Summaries adapter;

  ValidatingSummaries(OpenGate gate, Summaries adapter) {
    this.gate = gate;
    this.adapter = adapter;
  }

  @Override
  public Summary put(String sessionId, NewSummary summary) {
    requireSession(sessionId);
    Arguments.requireNonNull("summary", summary);
    return adapter.put(sessionId, summary);
  }

  @Override
  public Optional<Summary> latest(String sessionId) {
    requireSession(sessionId);
    return adapter.latest(sessionId);
  }

  @Override
  public List<Summary> list(String sessionId) {
    requireSession(sessionId);
    return adapter.list(sessionId);
  }

  @Override
  public Revival revive(String sessionId) {
    requireSession(sessionId);
    return adapter.revive(sessionId);
  }

  @Override
  public Revival revive(String sessionId, String agentId) {
    requireSession(sessionId);
    Arguments.requireKey("agentId", agentId);
    return adapter.revive(sessionId, agentId);
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq) {
    requireSession(sessionId);
    Arguments.requirePositive("summaryToSeq", summaryToSeq);
    return adapter.chapter(sessionId, summaryToSeq);
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq, String agentId) {
    requireSession(sessionId);
    Arguments.requirePositive("summaryToSeq", summaryToSeq);
    Arguments.requireKey("agentId", agentId);
    return adapter.chapter(sessionId, summaryToSeq, agentId);
  }

  private void requireSession(String sessionId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
  }
}
