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
 * so it covers every earlier cut: the partition never holds more than one live range of them), one row tombstone per
 * cut event's id row (ids are keyed by id, not seq, so a range cannot cover them; the id is free again in the
 * session), the rewrite of each tool call whose requesting event it removed (its link dropped), and the header's
 * {@code cut_seq}. Its reads: the ids of the cut events (one column, no payloads) and the session's tool calls. So a
 * cut costs in proportion to the events it removes, once; a batch that would pass half the store's
 * {@code maxMutationBytes} (the other half is room for the tool calls it rewrites), or 20,000 ids, cuts the chapters
 * that fit and the rest in the next batches, and a single chapter too large for one batch is left whole (logged).
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

  /** Cut events per batch at most: a batch holds at most 65,535 statements (the protocol's bound), one per id. */
  private static final int MAX_IDS_PER_BATCH = 20_000;

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
    long total = 0;
    while (true) {
      boolean[] more = {false};
      long removed = writer.change(sessionId, (header, serial) -> plan(sessionId, header, serial, max, more));
      total += removed;
      if (removed > 0) {
        reader.forgetCut(sessionId);
      }
      if (removed == 0 || !more[0]) {
        return total;
      }
    }
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
   * The batch cutting through the last chapter end that fits one batch; sets {@code more[0]} when that is short of
   * where the rule cuts. Null when nothing is to be cut, or not even one chapter fits.
   */
  private StepWriter.PartitionChange plan(String sessionId, Header header, boolean serial, int max, boolean[] more) {
    if (!holdsMore(header, max)) {
      return null;
    }
    Set<Long> ends = summaryEnds(sessionId, header, serial);
    long through = through(header, ends, max);
    if (through <= header.cutSeq()) {
      return null;
    }
    long budget = cql.settings.maxMutationBytes() / 2;
    long bytes = StepWriter.ROW_OVERHEAD;
    long fits = header.cutSeq();
    List<Map.Entry<Long, String>> ids = reader.eventIds(sessionId, header.cutSeq(), through, serial);
    if (ids.size() != through - header.cutSeq()) {
      // the log is gapless after its cut, so the partition changed since its header was read (another instance cut
      // it, or a truncation): a batch on that head fails, and the next attempt plans against a fresh read
      return new StepWriter.PartitionChange(List.of(), header.cutSeq(), 0);
    }
    for (int i = 0; i < ids.size() && i < MAX_IDS_PER_BATCH; i++) {
      Map.Entry<Long, String> id = ids.get(i);
      bytes += StepWriter.ROW_OVERHEAD + StepWriter.utf8(id.getValue());
      if (bytes > budget) {
        break;
      }
      if (ends.contains(id.getKey())) {
        fits = id.getKey();
      }
    }
    if (fits == header.cutSeq()) {
      LOG.warn("session {}: its oldest chapter after seq {} is too large to cut in one batch of at most {} bytes; "
          + "retention leaves it", sessionId, header.cutSeq(), cql.settings.maxMutationBytes());
      return null;
    }
    more[0] = fits < through;
    long cutThrough = fits;
    List<BatchableStatement<?>> statements = new ArrayList<>();
    statements.add(cql.cutEvents.bind(ns, sessionId, Rows.eventKey(cutThrough)));
    Set<String> gone = new HashSet<>();
    for (Map.Entry<Long, String> id : ids) {
      if (id.getKey() <= cutThrough) {
        gone.add(id.getValue());
        statements.add(cql.deleteId.bind(ns, sessionId, id.getValue()));
      }
    }
    for (ToolCall call : reader.toolCalls(sessionId, serial)) {
      if (call.requestEventId() != null && gone.contains(call.requestEventId())) {
        statements.add(writer.bindCall(sessionId, ToolCallTransitions.withoutRequestEvent(call)));
      }
    }
    return new StepWriter.PartitionChange(statements, cutThrough, cutThrough - header.cutSeq());
  }
}
