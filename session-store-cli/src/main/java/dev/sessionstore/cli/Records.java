package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON shape of each stored record, shared by {@code --json} output and the export format: one object per
 * record, fields named after the record's components. JSON documents (payload, settings, usage, error, arguments,
 * result, content) are carried as strings holding their exact stored text, so that what is imported is stored with
 * the same bytes (SPEC guarantee 18); instants are ISO-8601 strings; checkpoint data is Base64. Absent values are
 * omitted.
 */
final class Records {

  /** Plain Jackson: no default typing, so nothing read chooses a class to instantiate. */
  static final ObjectMapper MAPPER = new ObjectMapper();

  private Records() {
  }

  static ObjectNode session(Session session) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", session.id());
    putIfPresent(node, "name", session.name());
    putIfPresent(node, "tenant", session.tenant());
    putIfPresent(node, "agentId", session.agentId());
    node.put("status", session.status().value());
    node.put("settings", session.settings().text());
    ObjectNode metadata = node.putObject("metadata");
    new TreeMap<>(session.metadata()).forEach(metadata::put);
    session.forkOrigin().ifPresent(origin -> node.putObject("forkedFrom")
        .put("sessionId", origin.sessionId())
        .put("seq", origin.seq()));
    node.put("createdAt", session.createdAt().toString());
    node.put("updatedAt", session.updatedAt().toString());
    return node;
  }

  static ObjectNode event(Event event) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("sessionId", event.sessionId());
    node.put("seq", event.seq());
    node.put("id", event.id());
    node.put("type", event.type());
    putIfPresent(node, "runId", event.runId());
    putIfPresent(node, "agentId", event.agentId());
    putIfPresent(node, "parentId", event.parentId());
    node.put("payload", event.payload().text());
    node.put("timestamp", event.timestamp().toString());
    return node;
  }

  static ObjectNode run(Run run) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", run.id());
    node.put("sessionId", run.sessionId());
    node.put("status", run.status().name());
    putIfPresent(node, "usage", run.usage());
    putIfPresent(node, "error", run.error());
    node.put("createdAt", run.createdAt().toString());
    node.put("updatedAt", run.updatedAt().toString());
    return node;
  }

  static ObjectNode toolCall(ToolCall call) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", call.id());
    node.put("sessionId", call.sessionId());
    putIfPresent(node, "runId", call.runId());
    putIfPresent(node, "requestEventId", call.requestEventId());
    node.put("toolName", call.toolName());
    node.put("arguments", call.arguments().text());
    node.put("status", call.status().name());
    putIfPresent(node, "result", call.result());
    putIfPresent(node, "deadline", call.deadline());
    node.put("createdAt", call.createdAt().toString());
    node.put("updatedAt", call.updatedAt().toString());
    return node;
  }

  static ObjectNode summary(Summary summary) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("sessionId", summary.sessionId());
    node.put("fromSeq", summary.fromSeq());
    node.put("toSeq", summary.toSeq());
    node.put("content", summary.content().text());
    node.put("version", summary.version());
    node.put("createdAt", summary.createdAt().toString());
    return node;
  }

  static ObjectNode checkpoint(Checkpoint checkpoint) {
    ObjectNode node = MAPPER.createObjectNode();
    putIfPresent(node, "sessionId", checkpoint.key().sessionId());
    node.put("name", checkpoint.key().name());
    node.put("data", Base64.getEncoder().encodeToString(checkpoint.data()));
    node.put("updatedAt", checkpoint.updatedAt().toString());
    return node;
  }

  /** A string-to-number map as an object, keys sorted. */
  static ObjectNode counts(Map<String, Long> counts) {
    ObjectNode node = MAPPER.createObjectNode();
    new TreeMap<>(counts).forEach(node::put);
    return node;
  }

  private static void putIfPresent(ObjectNode node, String field, String value) {
    if (value != null) {
      node.put(field, value);
    }
  }

  private static void putIfPresent(ObjectNode node, String field, Json value) {
    if (value != null) {
      node.put(field, value.text());
    }
  }

  private static void putIfPresent(ObjectNode node, String field, Instant value) {
    if (value != null) {
      node.put(field, value.toString());
    }
  }
}
