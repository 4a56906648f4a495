package dev.sessionstore.cassandra.internal;

import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import dev.sessionstore.ToolCall;
import dev.sessionstore.cassandra.internal.Rows.Header;
import dev.sessionstore.spi.RetentionRules;
import dev.sessionstore.spi.ToolCallTransitions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The events-per-session rule of retention on one session's partition: its log's oldest chapters cut, whole, where
 * {@link RetentionRules#cutThrough} says, by one conditional batch on the head ({@link StepWriter#change}) that
 * also judges the partition as it read it, so a write landing meanwhile makes it judge again.
 *
 * <p><b>What a cut writes.</b> One range tombstone over the event rows ({@code key <= through}, from the log's start,
 * so it covers every earlier cut, whatever the cut's length), the header's {@code cut_seq}, the rewrite of each tool
 * call whose requesting event it removed (its link dropped), and one row tombstone per cut event's id row (ids are
 * keyed by id, not seq, so a range cannot cover them; the id is free again in the session). Its reads: the ids of the
 * cut events (one column, no payloads) and the session's tool calls. So a cut costs in proportion to the events it
 * removes, once. The id rows that do not fit the cut's batch (half the store's {@code maxMutationBytes}, 20,000
 * statements) go in later batches on the head, each deleting only id rows that still point at or below the cut (an
 * id appended again since points above it): until then, or for good after a crash in between, such an id row points
 * at no event, and every read by id finds none there.
 *
 * <p><b>What reads cost after a cut.</b> Every read of the log starts after {@code cut_seq}: reads that read the
 * header anyway (a revival, a chapter, a fork, an export, a step) from the header's ({@link Header#liveAfter}), a page
 * from where this instance last saw it, checked by the same read ({@link PartitionReader#page}). So no read scans
 * the cut rows or their tombstone: a read costs what it cost on a log of the events kept (a page read by an instance
 * that has not seen the cut walks them once, and learns it). A read by event id of a cut event is one id-row lookup
 * that finds a tombstone. Until compaction (and {@code gc_grace_seconds} for the tombstones) the cut rows take disk
 * space, not read time.
 */
final class HeadCut {

  private static final Logger LOG = LoggerFactory.getLogger(HeadCut.class);

  /** Statements per batch at most: the protocol bounds a batch to 65,535, and each cut id row is one. */
  private static final int MAX_STATEMENTS = 20_000;

  private final Cql cql;
  private final PartitionReader reader;
  private final StepWriter writer;
  private final String ns;

  HeadCut(Cql cql, PartitionReader reader, StepWriter writer) {
    this.cql = cql;
    this.reader = reader;
    this.writer = writer;
    this.ns = cql.settings.namespace();
  }

  /** How many events the rule would cut from the session as {@code header} shows it, to keep at most {@code max}. */
  long count(String sessionId, Header header, int max) {
    return holdsMore(header, max) ? through(header, summaryEnds(sessionId, header, false), max) - header.cutSeq() : 0;
  }

  /**
   * Cuts the session's log as the rule says, to keep at most {@code max}; returns how many events this removed.
   * Nothing is read or written when {@code listed} (a header read earlier) shows a log within the limit: a log that
   * grew since is cut by the next application.
   */
  long apply(String sessionId, Header listed, int max) {
    if (!holdsMore(listed, max)) {
      return 0;
    }
    List<String> leftIds = new ArrayList<>();
    long removed = writer.change(sessionId, (header, serial) -> plan(sessionId, header, serial, max, leftIds));
    if (removed > 0) {
      reader.forgetCut(sessionId);
      try {
        deleteLeftIds(sessionId, leftIds);
      } catch (RuntimeException e) {
        LOG.warn("session {}: {} id rows of events retention cut are left (they point at no event; reads skip them)",
            sessionId, leftIds.size(), e);
      }
    }
    return removed;
  }

  private static boolean holdsMore(Header header, int max) {
    return header.lastSeq() - header.cutSeq() > max;
  }

  /** The {@code toSeq}s of the summaries ending after the cut seq. */
  private Set<Long> summaryEnds(String sessionId, Header header, boolean serial) {
    Set<Long> ends = new HashSet<>();
    reader.summariesFrom(sessionId, header.cutSeq() + 1, serial).forEach(summary -> ends.add(summary.toSeq()));
    return ends;
  }

  /** The seq the rule cuts through, given the summary ends after the cut seq; the cut seq when nothing is cut. */
  private static long through(Header header, Set<Long> ends, int max) {
    return Math.max(header.cutSeq(), RetentionRules.cutThrough(header.cutSeq() + 1, header.lastSeq(), ends, max));
  }

  /**
   * The batch cutting the log through where the rule says: the range tombstone, the header's cut seq, the dropped
   * links of tool calls, and the deletions of the cut events' id rows as far as they fit the batch; the ids left for
   * later batches go to {@code leftIds}. Null when nothing is to be cut.
   */
  private StepWriter.PartitionChange plan(String sessionId, Header header, boolean serial, int max,
      List<String> leftIds) {
    if (!holdsMore(header, max)) {
      return null;
    }
    long through = through(header, summaryEnds(sessionId, header, serial), max);
    if (through <= header.cutSeq()) {
      return null;
    }
    List<Map.Entry<Long, String>> ids = reader.eventIds(sessionId, header.cutSeq(), through, serial);
    if (ids.size() != through - header.cutSeq()) {
      // the log is gapless after its cut, so the partition changed since its header was read (another instance cut
      // it, or a truncation): a batch on that head fails, and the next attempt plans against a fresh read
      return new StepWriter.PartitionChange(List.of(), header.cutSeq(), 0);
    }
    List<BatchableStatement<?>> statements = new ArrayList<>();
    statements.add(cql.cutEvents.bind(ns, sessionId, Rows.eventKey(through)));
    Set<String> gone = new HashSet<>();
    ids.forEach(id -> gone.add(id.getValue()));
    long bytes = StepWriter.ROW_OVERHEAD;
    for (ToolCall call : reader.toolCalls(sessionId, serial)) {
      if (call.requestEventId() != null && gone.contains(call.requestEventId())) {
        statements.add(writer.bindCall(sessionId, ToolCallTransitions.withoutRequestEvent(call)));
        bytes += StepWriter.ROW_OVERHEAD + StepWriter.utf8(call.arguments().text())
            + (call.result() == null ? 0 : StepWriter.utf8(call.result().text()));
      }
    }
    leftIds.clear();
    for (Map.Entry<Long, String> id : ids) {
      bytes += StepWriter.ROW_OVERHEAD + StepWriter.utf8(id.getValue());
      if (leftIds.isEmpty() && bytes <= idBudget() && statements.size() < MAX_STATEMENTS) {
        statements.add(cql.deleteId.bind(ns, sessionId, id.getValue()));
      } else {
        leftIds.add(id.getValue());
      }
    }
    return new StepWriter.PartitionChange(statements, through, through - header.cutSeq());
  }

  /** Bytes of id-row deletions one batch takes: half the store's largest write, the rest is room to spare. */
  private long idBudget() {
    return cql.settings.maxMutationBytes() / 2;
  }

  /**
   * Deletes the id rows of cut events that the cut's batch had no room for, a batch at a time on the head, each
   * deleting only those that still point at or below the cut seq: an id appended again since points above it and
   * stays.
   */
  private void deleteLeftIds(String sessionId, List<String> ids) {
    int from = 0;
    while (from < ids.size()) {
      int to = from;
      long bytes = 0;
      while (to < ids.size() && to - from < MAX_STATEMENTS
          && (bytes += StepWriter.ROW_OVERHEAD + StepWriter.utf8(ids.get(to))) <= idBudget()) {
        to++;
      }
      List<String> chunk = ids.subList(from, Math.max(to, from + 1));
      writer.change(sessionId, (header, serial) -> {
        Map<String, Long> seqs = reader.eventSeqs(sessionId, chunk, serial);
        List<BatchableStatement<?>> deletes = new ArrayList<>();
        for (String id : chunk) {
          Long seq = seqs.get(id);
          if (seq != null && seq <= header.cutSeq()) {
            deletes.add(cql.deleteId.bind(ns, sessionId, id));
          }
        }
        return deletes.isEmpty() ? null : new StepWriter.PartitionChange(deletes, header.cutSeq(), 0);
      });
      from += chunk.size();
    }
  }
}
