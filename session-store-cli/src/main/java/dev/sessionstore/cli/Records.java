package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.Json;
import dev.sessionstore.ModelCall;
import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON shape of each stored record, shared by {@code --json} output and the export format, both ways: one object
 * per record, fields named after the record's components. JSON documents (payload, settings, usage, error, arguments,
 * result, content, context) are written as {@link Documents} says: in the export format as strings holding their
 * exact stored text, so that what is imported is stored with the same bytes (guarantee 18 of docs/guarantees.md),
 * and read back only that way; in {@code --json} output as JSON values. Instants are ISO-8601 strings; checkpoint
 * data is Base64. Absent values are omitted.
 */
final class Records {

  /** Plain Jackson: no default typing, so nothing read chooses a class to instantiate. */
  static final ObjectMapper MAPPER = new ObjectMapper();

  private Records() {
  }

  /** The session's metadata as a JSON object, its keys in order. */
  static ObjectNode metadata(Session session) {
    ObjectNode metadata = MAPPER.createObjectNode();
    new TreeMap<>(session.metadata()).forEach(metadata::put);
    return metadata;
  }

  static ObjectNode session(Session session, Documents documents) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", session.id());
    putIfPresent(node, "name", session.name());
    putIfPresent(node, "tenant", session.tenant());
    putIfPresent(node, "agentId", session.agentId());
    node.put("status", session.status().value());
    putDocument(node, "settings", session.settings(), documents);
    node.set("metadata", metadata(session));
    session.forkOrigin().ifPresent(origin -> node.putObject("forkedFrom")
        .put("sessionId", origin.sessionId())
        .put("seq", origin.seq()));
    node.put("createdAt", session.createdAt().toString());
    node.put("updatedAt", session.updatedAt().toString());
    putIfPresent(node, "expiresAt", session.expiresAt());
    return node;
  }

  static ObjectNode event(Event event, Documents documents) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("sessionId", event.sessionId());
    node.put("seq", event.seq());
    node.put("id", event.id());
    node.put("type", event.type());
    putIfPresent(node, "runId", event.runId());
    putIfPresent(node, "agentId", event.agentId());
    putIfPresent(node, "parentId", event.parentId());
    putDocument(node, "payload", event.payload(), documents);
    node.put("timestamp", event.timestamp().toString());
    return node;
  }

  static ObjectNode run(Run run, Documents documents) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", run.id());
    node.put("sessionId", run.sessionId());
    node.put("status", run.status().name());
    putDocument(node, "usage", run.usage(), documents);
    putDocument(node, "error", run.error(), documents);
    node.put("createdAt", run.createdAt().toString());
    node.put("updatedAt", run.updatedAt().toString());
    return node;
  }

  static ObjectNode toolCall(ToolCall call, Documents documents) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", call.id());
    node.put("sessionId", call.sessionId());
    putIfPresent(node, "runId", call.runId());
    putIfPresent(node, "requestEventId", call.requestEventId());
    node.put("toolName", call.toolName());
    putDocument(node, "arguments", call.arguments(), documents);
    node.put("status", call.status().name());
    putDocument(node, "result", call.result(), documents);
    putIfPresent(node, "deadline", call.deadline());
    node.put("createdAt", call.createdAt().toString());
    node.put("updatedAt", call.updatedAt().toString());
    return node;
  }

  static ObjectNode summary(Summary summary, Documents documents) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("sessionId", summary.sessionId());
    node.put("fromSeq", summary.fromSeq());
    node.put("toSeq", summary.toSeq());
    putDocument(node, "content", summary.content(), documents);
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

  static ObjectNode modelCall(ModelCall call, Documents documents) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("sessionId", call.sessionId());
    node.put("turn", call.turn());
    node.put("model", call.model());
    putDocument(node, "context", call.context(), documents);
    putDocument(node, "usage", call.usage(), documents);
    node.put("recordedAt", call.recordedAt().toString());
    return node;
  }

  static Session session(LineFields line) {
    LineFields origin = line.optionalObject("forkedFrom");
    return new Session(line.string("id"), line.optionalString("name"), line.optionalString("tenant"),
        line.optionalString("agentId"), SessionStatus.of(line.string("status")), line.document("settings"),
        line.stringMap("metadata"),
        origin == null ? null : new ForkOrigin(origin.string("sessionId"), origin.number("seq")),
        line.instant("createdAt"), line.instant("updatedAt"), line.optionalInstant("expiresAt"), 0);
  }

  static Event event(LineFields line) {
    return new Event(line.string("sessionId"), line.number("seq"), line.string("id"), line.string("type"),
        line.optionalString("runId"), line.optionalString("agentId"), line.optionalString("parentId"),
        line.document("payload"), line.instant("timestamp"));
  }

  static Run run(LineFields line) {
    return new Run(line.string("id"), line.string("sessionId"), enumValue(RunStatus.class, line, "status"),
        line.document("usage"), line.optionalDocument("error"), line.instant("createdAt"),
        line.instant("updatedAt"));
  }

  static ToolCall toolCall(LineFields line) {
    return new ToolCall(line.string("id"), line.string("sessionId"), line.optionalString("runId"),
        line.optionalString("requestEventId"), line.string("toolName"), line.document("arguments"),
        enumValue(ToolCallStatus.class, line, "status"), line.optionalDocument("result"),
        line.optionalInstant("deadline"), line.instant("createdAt"), line.instant("updatedAt"));
  }

  static Summary summary(LineFields line) {
    return new Summary(line.string("sessionId"), line.number("fromSeq"), line.number("toSeq"),
        line.document("content"), line.smallNumber("version"), line.instant("createdAt"));
  }

  static Checkpoint checkpoint(LineFields line) {
    String sessionId = line.optionalString("sessionId");
    CheckpointKey key = sessionId == null ? CheckpointKey.global(line.string("name"))
        : CheckpointKey.of(sessionId, line.string("name"));
    return new Checkpoint(key, line.base64("data"), line.instant("updatedAt"));
  }

  static ModelCall modelCall(LineFields line) {
    return new ModelCall(line.string("sessionId"), line.number("turn"), line.string("model"),
        line.document("context"), line.document("usage"), line.instant("recordedAt"));
  }

  private static <E extends Enum<E>> E enumValue(Class<E> type, LineFields line, String field) {
    String name = line.string(field);
    try {
      return Enum.valueOf(type, name);
    } catch (IllegalArgumentException e) {
      throw new LineFields.Malformed("\"" + field + "\" is not a " + type.getSimpleName() + ": " + name);
    }
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

  /** A JSON document as {@code documents} says; omitted when absent. */
  private static void putDocument(ObjectNode node, String field, Json value, Documents documents) {
    if (value == null) {
      return;
    }
    if (documents == Documents.VALUES) {
      node.set(field, value.tree());
    } else {
      node.put(field, value.text());
    }
  }

  private static void putIfPresent(ObjectNode node, String field, Instant value) {
    if (value != null) {
      node.put(field, value.toString());
    }
  }
}
