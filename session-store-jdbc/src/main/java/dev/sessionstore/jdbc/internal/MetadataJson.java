package dev.sessionstore.jdbc.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.TreeMap;

/** Session metadata (a string map) as the JSON object stored in its column, through Jackson. */
final class MetadataJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {
  };

  private MetadataJson() {
  }

  /** The JSON object text of {@code metadata}, keys sorted. */
  static String write(Map<String, String> metadata) {
    try {
      return MAPPER.writeValueAsString(new TreeMap<>(metadata));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a string map always serializes", e);
    }
  }

  /** The map stored as {@code json}, a JSON object of strings. */
  static Map<String, String> read(String json) {
    try {
      return MAPPER.readValue(json, STRING_MAP);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored session metadata is not a JSON object of strings: " + json, e);
    }
  }
}
