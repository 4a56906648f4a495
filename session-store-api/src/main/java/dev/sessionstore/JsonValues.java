package dev.sessionstore;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.Map;

/**
 * Value equality of JSON trees: objects are equal when they have the same keys with equal values in any order,
 * arrays when their elements are equal in order, numbers when their decimal values are equal whatever the notation
 * ({@code 100}, {@code 1e2}, {@code 100.0}; every zero), strings when they hold the same chars. {@link #hash} agrees
 * with it. Recursion is bounded by {@link Limits#MAX_JSON_DEPTH}, which every {@link Json} respects.
 */
final class JsonValues {

  /** Zero for equal leaves: numbers by decimal value, anything else by Jackson's own equality. */
  private static final Comparator<JsonNode> LEAVES = (left, right) -> {
    if (left.isNumber() && right.isNumber()) {
      return left.decimalValue().compareTo(right.decimalValue());
    }
    return left.equals(right) ? 0 : 1;
  };

  private JsonValues() {
  }

  static boolean equal(JsonNode left, JsonNode right) {
    return left.equals(LEAVES, right);
  }

  static int hash(JsonNode node) {
    if (node.isObject()) {
      int hash = 1;
      for (Map.Entry<String, JsonNode> member : node.properties()) {
        hash += member.getKey().hashCode() ^ hash(member.getValue());
      }
      return hash;
    }
    if (node.isArray()) {
      int hash = 2;
      for (JsonNode element : node) {
        hash = 31 * hash + hash(element);
      }
      return hash;
    }
    if (node.isNumber()) {
      BigDecimal value = node.decimalValue();
      return value.signum() == 0 ? 0 : value.stripTrailingZeros().hashCode();
    }
    return node.hashCode();
  }
}
