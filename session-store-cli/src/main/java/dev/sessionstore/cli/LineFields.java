package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionstore.Json;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields of one line of an export file, read with the type each must have. A missing required field, a field of
 * the wrong type, an unparsable instant or Base64 text, or a document that is not valid JSON fails with
 * {@link Malformed} naming the field.
 */
final class LineFields {

  /** A field of the line is missing or malformed. */
  static final class Malformed extends RuntimeException {

    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message);
    }
  }

  private final JsonNode node;

  LineFields(JsonNode node) {
    if (!node.isObject()) {
      throw new Malformed("not a JSON object");
    }
    this.node = node;
  }

  String string(String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      throw new Malformed("\"" + field + "\" is missing");
    }
    if (!value.isTextual()) {
      throw new Malformed("\"" + field + "\" must be a string");
    }
    return value.asText();
  }

  /** The string, or {@code null} when the field is absent or null. */
  String optionalString(String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : string(field);
  }

  long number(String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
      throw new Malformed("\"" + field + "\" must be an integer");
    }
    return value.asLong();
  }

  /** The integer, or {@code absent} when the field is absent or null. */
  long optionalNumber(String field, long absent) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? absent : number(field);
  }

  int smallNumber(String field) {
    long value = number(field);
    if (value != (int) value) {
      throw new Malformed("\"" + field + "\" is out of range");
    }
    return (int) value;
  }

  Instant instant(String field) {
    return parseInstant(field, string(field));
  }

  Instant optionalInstant(String field) {
    String text = optionalString(field);
    return text == null ? null : parseInstant(field, text);
  }

  /** A JSON document carried as a string of its exact text. */
  Json document(String field) {
    return Json.parse(field, string(field));
  }

  Json optionalDocument(String field) {
    String text = optionalString(field);
    return text == null ? null : Json.parse(field, text);
  }

  byte[] base64(String field) {
    try {
      return Base64.getDecoder().decode(string(field));
    } catch (IllegalArgumentException e) {
      throw new Malformed("\"" + field + "\" is not Base64: " + e.getMessage());
    }
  }

  Map<String, String> stringMap(String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return Map.of();
    }
    if (!value.isObject()) {
      throw new Malformed("\"" + field + "\" must be an object");
    }
    Map<String, String> map = new LinkedHashMap<>();
    value.fields().forEachRemaining(entry -> {
      if (!entry.getValue().isTextual()) {
        throw new Malformed("\"" + field + "." + entry.getKey() + "\" must be a string");
      }
      map.put(entry.getKey(), entry.getValue().asText());
    });
    return map;
  }

  /** The nested object {@code field}, or {@code null} when absent or null. */
  LineFields optionalObject(String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : new LineFields(value);
  }

  private static Instant parseInstant(String field, String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new Malformed("\"" + field + "\" is not an ISO-8601 instant: " + text);
    }
  }
}
