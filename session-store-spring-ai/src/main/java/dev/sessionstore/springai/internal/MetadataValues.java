package dev.sessionstore.springai.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.ai.chat.messages.MessageType;

/**
 * Metadata values as typed JSON, so that they come back as the Java types they were: each value is written as
 * {@code {"t": type, "v": value}}.
 *
 * <p>Restored with their exact type and value: {@code null}, {@link String}, {@link Boolean}, {@link Integer},
 * {@link Long}, {@link Short}, {@link Byte}, {@link Character}, {@link Double} and {@link Float} (NaN and infinities
 * included, written as text), {@link BigInteger}, {@link BigDecimal} (scale kept), {@link Instant}, {@link UUID},
 * {@link URI}, {@code byte[]}, {@link MessageType}, other enums whose class the class loader of this library finds,
 * any {@link Collection} (as an {@link ArrayList}) and any {@link Map} with string keys (as a {@link LinkedHashMap}),
 * nested freely. Anything else (records, beans) is written as the JSON Jackson makes of it and comes back as plain
 * JSON values: maps, lists, strings, numbers ({@link Integer}, {@link Long}, {@link BigInteger} or
 * {@link BigDecimal}) and booleans; a value Jackson cannot write is kept as its {@code toString()}.
 */
public final class MetadataValues {

  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private MetadataValues() {
  }

  /** {@code value} as typed JSON, {@code {"t": type, "v": value}}; never fails (see the type for what comes back). */
  public static ObjectNode write(Object value) {
    ObjectNode node = NODES.objectNode();
    if (value == null) {
      return node.put("t", "null");
    }
    if (value instanceof String string) {
      return node.put("t", "string").put("v", string);
    }
    if (value instanceof Boolean bool) {
      return node.put("t", "boolean").put("v", bool);
    }
    if (value instanceof Integer number) {
      return node.put("t", "int").put("v", number);
    }
    if (value instanceof Long number) {
      return node.put("t", "long").put("v", number);
    }
    if (value instanceof Short number) {
      return node.put("t", "short").put("v", number);
    }
    if (value instanceof Byte number) {
      return node.put("t", "byte").put("v", number.intValue());
    }
    if (value instanceof Character character) {
      return node.put("t", "char").put("v", character.toString());
    }
    if (value instanceof Double number) {
      return node.put("t", "double").put("v", number.toString());
    }
    if (value instanceof Float number) {
      return node.put("t", "float").put("v", number.toString());
    }
    if (value instanceof BigInteger number) {
      return node.put("t", "bigint").put("v", number.toString());
    }
    if (value instanceof BigDecimal number) {
      return node.put("t", "decimal").put("v", number.toString());
    }
    if (value instanceof Instant instant) {
      return node.put("t", "instant").put("v", instant.toString());
    }
    if (value instanceof UUID uuid) {
      return node.put("t", "uuid").put("v", uuid.toString());
    }
    if (value instanceof URI uri) {
      return node.put("t", "uri").put("v", uri.toString());
    }
    if (value instanceof byte[] bytes) {
      return node.put("t", "bytes").put("v", Base64.getEncoder().encodeToString(bytes));
    }
    if (value instanceof MessageType type) {
      return node.put("t", "messageType").put("v", type.name());
    }
    if (value instanceof Enum<?> constant) {
      return node.put("t", "enum").put("class", constant.getDeclaringClass().getName()).put("v", constant.name());
    }
    if (value instanceof Collection<?> collection) {
      ArrayNode items = node.put("t", "list").putArray("v");
      collection.forEach(item -> items.add(write(item)));
      return node;
    }
    if (value instanceof Map<?, ?> map && map.keySet().stream().allMatch(String.class::isInstance)) {
      ObjectNode members = node.put("t", "map").putObject("v");
      map.forEach((key, item) -> members.set((String) key, write(item)));
      return node;
    }
    try {
      return node.put("t", "json").set("v", MAPPER.valueToTree(value));
    } catch (IllegalArgumentException e) {
      return node.put("t", "text").put("v", value.toString());
    }
  }

  /** The value {@link #write} wrote as {@code node}, with the type named there. */
  public static Object read(JsonNode node) {
    String type = node.path("t").asText();
    JsonNode value = node.path("v");
    return switch (type) {
      case "null" -> null;
      case "string", "text" -> value.asText();
      case "boolean" -> value.asBoolean();
      case "int" -> value.intValue();
      case "long" -> value.longValue();
      case "short" -> value.shortValue();
      case "byte" -> (byte) value.intValue();
      case "char" -> value.asText().charAt(0);
      case "double" -> Double.valueOf(value.asText());
      case "float" -> Float.valueOf(value.asText());
      case "bigint" -> new BigInteger(value.asText());
      case "decimal" -> new BigDecimal(value.asText());
      case "instant" -> Instant.parse(value.asText());
      case "uuid" -> UUID.fromString(value.asText());
      case "uri" -> URI.create(value.asText());
      case "bytes" -> Base64.getDecoder().decode(value.asText());
      case "messageType" -> MessageType.valueOf(value.asText());
      case "enum" -> enumConstant(node.path("class").asText(), value.asText());
      case "list" -> {
        List<Object> items = new ArrayList<>();
        value.forEach(item -> items.add(read(item)));
        yield items;
      }
      case "map" -> {
        Map<String, Object> members = new LinkedHashMap<>();
        value.properties().forEach(member -> members.put(member.getKey(), read(member.getValue())));
        yield members;
      }
      case "json" -> plain(value);
      default -> throw new IllegalStateException("unknown metadata value type " + type);
    };
  }

  /** The enum constant, or its name when the enum class is not found (the enum stays a string then). */
  private static Object enumConstant(String className, String name) {
    try {
      Class<?> type = Class.forName(className, false, MetadataValues.class.getClassLoader());
      if (type.isEnum()) {
        for (Object constant : type.getEnumConstants()) {
          if (((Enum<?>) constant).name().equals(name)) {
            return constant;
          }
        }
      }
    } catch (ClassNotFoundException | LinkageError e) {
      // not visible here: keep the name
    }
    return name;
  }

  private static Object plain(JsonNode value) {
    if (value.isIntegralNumber()) {
      return value.numberValue();
    }
    if (value.isNumber()) {
      return value.decimalValue();
    }
    return MAPPER.convertValue(value, Object.class);
  }
}
