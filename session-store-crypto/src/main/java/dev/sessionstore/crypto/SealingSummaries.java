package dev.sessionstore.crypto;

import dev.sessionstore.Chapter;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Revival;
import dev.sessionstore.Summaries;
import dev.sessionstore.Summary;
import dev.sessionstore.spi.ForwardingSummaries;
import dev.sessionstore.spi.Interception;
import java.util.List;
import java.util.Optional;

/** Summaries with their content sealed, and revivals and chapters opened (summary and events). */
final class SealingSummaries extends ForwardingSummaries {

  private final Values values;

  SealingSummaries(Summaries delegate, Values values) {
    super(delegate, Interception.none());
    this.values = values;
  }

  @Override
  public Summary put(String sessionId, NewSummary summary) {
    return values.open(super.put(sessionId, values.seal(sessionId, summary)));
  }

  @Override
  public Optional<Summary> latest(String sessionId) {
    return super.latest(sessionId).map(values::open);
  }

  @Override
  public List<Summary> list(String sessionId) {
    return Values.map(super.list(sessionId), values::open);
  }

  @Override
  public Revival revive(String sessionId) {
    return values.open(super.revive(sessionId));
  }

  @Override
  public Revival revive(String sessionId, String agentId) {
    return values.open(super.revive(sessionId, agentId));
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq) {
    return super.chapter(sessionId, summaryToSeq).map(values::open);
  }

  @Override
  public Optional<Chapter> chapter(String sessionId, long summaryToSeq, String agentId) {
    return super.chapter(sessionId, summaryToSeq, agentId).map(values::open);
  }
}
