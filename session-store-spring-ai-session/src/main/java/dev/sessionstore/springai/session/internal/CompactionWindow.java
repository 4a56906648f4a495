package dev.sessionstore.springai.session.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Summary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The active window a compaction left, as the content of the summary the compaction wrote: the retained events in
 * their order, whole (seq, id, type, agent, time, payload), so reading the active window takes the latest summary and
 * the events after its {@code toSeq}, never the history before it. Every event of the log up to {@code toSeq} that is
 * not in the window is archived; nothing is deleted.
 *
 * @param toSeq  the seq of the compaction's marker event, the last seq the window accounts for; 0 before any compaction
 * @param events the retained events, in the order the compaction gave them
 */
public record CompactionWindow(long toSeq, List<Event> events) {

  /** The event type of the marker a compaction appends, which moves the version and names what it archived. */
  public static final String MARKER_TYPE = "spring_ai_session_compaction";

  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

  /** Copies the window. */
  public CompactionWindow {
    events = List.copyOf(events);
  }

  /** No compaction yet: an empty window accounting for nothing. */
  public static CompactionWindow none() {
    return new CompactionWindow(0, List.of());
  }

  /** The window stored in {@code summary} of session {@code sessionId}. */
  public static CompactionWindow of(String sessionId, Summary summary) {
    List<Event> events = new ArrayList<>();
    for (JsonNode item : summary.content().tree().path("window")) {
      JsonNode agent = item.path("agentId");
      events.add(new Event(sessionId, item.path("seq").asLong(), item.path("id").asText(), item.path("type").asText(),
          null, agent.isNull() || agent.isMissingNode() ? null : agent.asText(), null,
          Json.from(item.path("payload")), Instant.parse(item.path("timestamp").asText())));
    }
    return new CompactionWindow(summary.toSeq(), events);
  }

  /** The ids of the window's events. */
  public Set<String> ids() {
    return events.stream().map(Event::id).collect(Collectors.toUnmodifiableSet());
  }

  /** This window as the summary covering {@code fromSeq..toSeq}. */
  public NewSummary toSummary(long fromSeq) {
    ObjectNode content = NODES.objectNode();
    ArrayNode window = content.putArray("window");
    for (Event event : events) {
      ObjectNode item = window.addObject();
      item.put("seq", event.seq()).put("id", event.id()).put("type", event.type()).put("agentId", event.agentId())
          .put("timestamp", event.timestamp().toString());
      item.set("payload", event.payload().tree());
    }
    return NewSummary.of(fromSeq, toSeq, Json.from(content));
  }
}
