package dev.sessionstore.cassandra.internal;

import dev.sessionstore.Chapter;
import dev.sessionstore.Event;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Revival;
import dev.sessionstore.Step;
import dev.sessionstore.Summaries;
import dev.sessionstore.Summary;
import java.util.List;
import java.util.Optional;

/**
 * Summaries on Cassandra: rows of the session's partition clustered by {@code toSeq}, written by steps
 * ({@link StepWriter}), so a cut removes them in the same batch. A revival reads the latest summary (one row) and the
 * events after it (a range of the log, never from seq 1), a chapter the summary, the one before it and the events
 * between; each in one consistent view ({@link PartitionReader#consistent}; a revival of a session with a summary
 * in two reads that each carry the partition's head, the same in both).
 */
final class CassandraSummaries implements Summaries {

  private final PartitionReader reader;
  private final StepWriter writer;

  CassandraSummaries(PartitionReader reader, StepWriter writer) {
    this.reader = reader;
    this.writer = writer;
  }

  @Override
  public Summary put(String sessionId, NewSummary summary) {
    return writer.commit(Step.builder(sessionId).summary(summary).build(), true).summary().orElseThrow();
  }

  @Override
  public Optional<Summary> latest(String sessionId) {
    return Reads.run(() -> reader.latestSummary(sessionId));
  }

  @Override
  public List<Summary> list(String sessionId) {
    return List.copyOf(Reads.run(() -> reader.summaries(sessionId)));
  }

  @Override
  public Revival revive(String sessionId) {
    return revival(sessionId, null);
  }

  @Override
  public Revival revive(String sessionId, String agentId) {
    return revival(sessionId, agentId);
  }

  /**
   * Where the session holds a summary, two reads: the latest summary with the header, then the events after it, each
   * row with the head, which must be the header's (else, and without a summary, the consistent view of four reads).
   */
  private Revival revival(String sessionId, String agentId) {
    return Reads.run(() -> reader.latestSummaryWithHeader(sessionId)
        .flatMap(latest -> reader.eventsBetweenIfUnchanged(sessionId, latest.header(), latest.summary().toSeq(),
                latest.header().lastSeq())
            .map(events -> new Revival(Optional.of(latest.summary()), ofAgent(events, agentId),
                latest.header().lastSeq())))
        .orElseGet(() -> consistentRevival(sessionId, agentId)));
  }

  private Revival consistentRevival(String sessionId, String agentId) {
    return reader.consistent(sessionId, header -> {
      if (!header.exists()) {
        return new Revival(Optional.empty(), List.of(), 0);
      }
      Optional<Summary> latest = reader.latestSummary(sessionId);
      long afterSeq = latest.map(Summary::toSeq).orElse(0L);
      return new Revival(latest, ofAgent(reader.eventsBetween(sessionId, header, afterSeq, header.lastSeq()), agentId),
          header.lastSeq());
    });
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
    return Reads.run(() -> reader.consistent(sessionId, header -> reader.summary(sessionId, summaryToSeq)
        .map(summary -> {
          Optional<Summary> previous = reader.summaryBefore(sessionId, summaryToSeq);
          long afterSeq = previous.map(Summary::toSeq).orElse(0L);
          return new Chapter(summary, previous,
              ofAgent(reader.eventsBetween(sessionId, header, afterSeq, summaryToSeq), agentId));
        })));
  }

  /** The events of {@code agentId}, or all of them when it is {@code null}. */
  private static List<Event> ofAgent(List<Event> events, String agentId) {
    return agentId == null ? List.copyOf(events)
        : events.stream().filter(event -> agentId.equals(event.agentId())).toList();
  }
}
