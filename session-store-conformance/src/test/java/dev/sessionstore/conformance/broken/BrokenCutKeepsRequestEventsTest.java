package dev.sessionstore.conformance.broken;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store whose cuts, by truncation or by retention, keep the link of a tool call to the requesting event they
 * removed, so its reads and exports name an event the log no longer holds.
 */
class BrokenCutKeepsRequestEventsTest extends BrokenStoreTest {

  BrokenCutKeepsRequestEventsTest() {
    super(new Caught(SessionStoreConformance.Archives.class, "aCutDropsTheLinksToTheEventsItRemoved",
            "requesting event of call-cut after its event was cut"),
        new Caught(SessionStoreConformance.Archives.class, "aRoundTripIntoAFreshStoreGivesAnIdenticalExport",
            "archive.toolCalls"),
        new Caught(SessionStoreConformance.Retention.class, "aCutDropsTheLinksToTheEventsItRemoved",
            "requesting event of call-cut after the cut removed it"));
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore correct = correctStore(clock);
    Map<String, String> cutLinks = new ConcurrentHashMap<>();
    return ForwardingStore.of(correct)
        .withEvents(events -> new ForwardingEventLog(events) {
          @Override
          public int truncate(String sessionId, long fromSeq) {
            Optional<SessionArchive> before = correct.archives().export(sessionId);
            int removed = delegate.truncate(sessionId, fromSeq);
            remember(before, cutLinks);
            return removed;
          }
        })
        .withRetention(retention -> new ForwardingRetention(retention) {
          @Override
          public RetentionReport apply(RetentionPolicy policy) {
            List<Optional<SessionArchive>> before = correct.sessions().list(SessionQuery.all()).items().stream()
                .map(session -> correct.archives().export(session.id())).toList();
            RetentionReport report = delegate.apply(policy);
            before.forEach(archive -> remember(archive, cutLinks));
            return report;
          }
        })
        .withToolCalls(calls -> new ForwardingToolCalls(calls) {
          @Override
          public Optional<ToolCall> find(String sessionId, String toolCallId) {
            return delegate.find(sessionId, toolCallId).map(call -> linked(call, cutLinks));
          }
        })
        .withArchives(archives -> new ForwardingArchives(archives) {
          @Override
          public Optional<SessionArchive> export(String sessionId) {
            return delegate.export(sessionId).map(archive -> archive.withToolCalls(archive.toolCalls().stream()
                .map(call -> linked(call, cutLinks)).toList()));
          }
        });
  }

  /** Remembers the link of every call of {@code archive}, to put back those a cut then drops. */
  private static void remember(Optional<SessionArchive> archive, Map<String, String> cutLinks) {
    archive.ifPresent(before -> before.toolCalls().stream().filter(call -> call.requestEventId() != null)
        .forEach(call -> cutLinks.put(key(call), call.requestEventId())));
  }

  private static String key(ToolCall call) {
    return call.sessionId() + "/" + call.id();
  }

  /** {@code call} with the link the cut dropped put back. */
  private static ToolCall linked(ToolCall call, Map<String, String> cutLinks) {
    String eventId = cutLinks.get(key(call));
    return call.requestEventId() != null || eventId == null ? call
        : new ToolCall(call.id(), call.sessionId(), call.runId(), eventId, call.toolName(), call.arguments(),
            call.status(), call.result(), call.deadline(), call.createdAt(), call.updatedAt());
  }
}
