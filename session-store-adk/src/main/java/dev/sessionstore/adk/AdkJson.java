package dev.sessionstore.adk;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.adk.JsonBaseModel;
import com.google.adk.events.Event;
import com.google.adk.sessions.SessionException;
import com.google.adk.sessions.State;
import dev.sessionstore.Json;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * ADK's JSON at the edge: events as {@link Event#toJson()} writes them (through ADK's own mapper) and back with
 * {@link Event#fromJson(String)}, and state values as that mapper writes and reads them. A removal in a state delta
 * ({@link State#REMOVED}, which ADK writes as the string {@value #REMOVED_TEXT}) is stored as that string in events and
 * as JSON {@code null} in this module's own delta documents; both read back as a removal.
 */
final class AdkJson {

  /** How ADK's mapper writes {@link State#REMOVED}. */
  static final String REMOVED_TEXT = "__ADK_SENTINEL_REMOVED__";

  private static final ObjectMapper MAPPER = JsonBaseModel.getMapper();

  private AdkJson() {
  }

  static ObjectMapper mapper() {
    return MAPPER;
  }

  /** Whether a stored delta value means "remove the key". */
  static boolean isRemoval(JsonNode value) {
    return value == null || value.isNull() || (value.isTextual() && REMOVED_TEXT.equals(value.asText()));
  }

  /**
   * The document stored for {@code event}: ADK's JSON of it, with the {@code temp:} keys left out of its state delta
   * (they are never persisted).
   */
  static Json storedEvent(Event event) {
    Map<String, Object> stateDelta = event.actions() == null ? null : event.actions().stateDelta();
    if (stateDelta == null || stateDelta.keySet().stream().noneMatch(key -> key.startsWith(State.TEMP_PREFIX))) {
      return Json.parse("event.payload", write(event));
    }
    ObjectNode tree = MAPPER.valueToTree(event);
    JsonNode delta = tree.path("actions").path("stateDelta");
    if (delta.isObject()) {
      ((ObjectNode) delta).remove(((ObjectNode) delta).properties().stream().map(Map.Entry::getKey)
          .filter(key -> key.startsWith(State.TEMP_PREFIX)).toList());
    }
    return Json.parse("event.payload", write(tree));
  }

  /** The ADK event a stored document holds, its removals as {@link State#REMOVED} again. */
  static Event event(Json payload) {
    Event event = Event.fromJson(payload.text());
    if (event.actions() != null && event.actions().stateDelta() != null) {
      event.actions().stateDelta().replaceAll((key, value) -> REMOVED_TEXT.equals(value) ? State.REMOVED : value);
    }
    return event;
  }

  /**
   * A delta document {@code {"delta": {key: value or null}}} for {@code changes} (keys as given), written in one pass
   * of ADK's mapper.
   */
  static Json delta(Map<String, Object> changes) {
    Map<String, Object> delta = new LinkedHashMap<>();
    changes.forEach((key, value) -> delta.put(key, value == State.REMOVED ? null : value));
    return Json.parse("event.payload", write(Map.of("delta", delta)));
  }

  /** Applies the members of {@code changes} whose keys {@code keep} accepts to {@code state}: removals remove. */
  static void apply(JsonNode changes, ObjectNode state, Predicate<String> keep) {
    if (changes == null || !changes.isObject()) {
      return;
    }
    Iterator<Map.Entry<String, JsonNode>> fields = changes.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String key = field.getKey();
      if (!keep.test(key)) {
        continue;
      }
      if (isRemoval(field.getValue())) {
        state.remove(key);
      } else {
        state.set(key, field.getValue());
      }
    }
  }

  /** {@code state} as the map ADK hands to callers, each key given {@code prefix}. */
  static Map<String, Object> values(ObjectNode state, String prefix) {
    Map<String, Object> values = new HashMap<>();
    Iterator<Map.Entry<String, JsonNode>> fields = state.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      try {
        values.put(prefix + field.getKey(), MAPPER.treeToValue(field.getValue(), Object.class));
      } catch (JsonProcessingException e) {
        throw new SessionException("a stored state value does not read back: " + field.getKey(), e);
      }
    }
    return values;
  }

  private static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new SessionException("ADK's mapper cannot write this value as JSON", e);
    }
  }
}
