package dev.sessionstore.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/** Parses what the tool printed with {@code --json}. */
final class Json {

  private Json() {
  }

  static JsonNode parse(String printed) {
    try {
      return Records.MAPPER.readTree(printed);
    } catch (JsonProcessingException e) {
      throw new AssertionError("not JSON: " + printed, e);
    }
  }
}
