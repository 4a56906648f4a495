package dev.sessionstore;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules every {@link Json} document follows, and the one Jackson configuration that enforces them.
 *
 * <p>Jackson does the parsing: RFC 8259 syntax only (no comments, single quotes, leading zeros, {@code NaN} or
 * infinities), {@link StreamReadFeature#STRICT_DUPLICATE_DETECTION}, and {@link StreamReadConstraints} for nesting
 * depth and number, string and key length. Two checks are our own, because Jackson has none: the text length,
 * counted before parsing (Jackson's document-length constraint does not bound a {@code String} it is given whole),
 * and, for every string and key, no U+0000 and no unpaired surrogate (escaped or not), the characters some backends
 * cannot store. Every float is converted to an exact {@link java.math.BigDecimal} once, so that a number whose
 * exponent no decimal holds is rejected at construction rather than on a later read.
 *
 * <p>Validation streams the tokens and builds no tree. The mapper reads floats as {@code BigDecimal} and keeps
 * their scale in trees ({@code 100.0} stays {@code 100.0}); integers are exact in Jackson already (int, long or
 * BigInteger by size). Default typing is never enabled: reading a document never instantiates a class it names.
 */
final class JsonRules {

  /** The configured mapper; thread-safe and never reconfigured after this class is initialized. */
  static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
          .streamReadConstraints(StreamReadConstraints.builder()
              .maxNestingDepth(Limits.MAX_JSON_DEPTH)
              .maxNumberLength(Limits.MAX_JSON_NUMBER_LENGTH)
              .maxStringLength(Limits.MAX_JSON_LENGTH)
              .maxNameLength(Limits.MAX_JSON_LENGTH)
              .build())
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
          .build())
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
      .build();

  private JsonRules() {
  }

  /**
   * Checks that {@code text} is one storable JSON document.
   *
   * @throws InvalidArgumentException naming {@code field}, with the line and column of the problem
   */
  static void validate(String field, String text) {
    Checks.requireNonNull(field, text);
    if (text.length() > Limits.MAX_JSON_LENGTH) {
      throw new InvalidArgumentException(
          field, "JSON longer than " + Limits.MAX_JSON_LENGTH + " chars (" + text.length() + ")");
    }
    try (JsonParser parser = MAPPER.createParser(text)) {
      JsonToken token = parser.nextToken();
      if (token == null) {
        throw invalid(field, parser.currentLocation(), "no JSON value");
      }
      while (true) {
        checkToken(field, parser, token);
        if (parser.getParsingContext().inRoot()) {
          break;
        }
        token = parser.nextToken();
      }
      if (parser.nextToken() != null) {
        throw invalid(field, parser.currentTokenLocation(), "content after the document");
      }
    } catch (JsonProcessingException e) {
      throw invalid(field, e.getLocation(), ownWords(e.getOriginalMessage()), e);
    } catch (IOException e) {
      throw new IllegalStateException("reading a String cannot fail with I/O", e);
    }
  }

  /** The tree of a document that {@link #validate} accepted. */
  static JsonNode tree(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a validated document no longer parses: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * The string values of a document that {@link #validate} accepted, in document order, read token by token: what a
   * walk of its {@link #tree} finds, without building one (a validated document has no duplicate keys).
   */
  static List<String> stringValues(String text) {
    List<String> values = new ArrayList<>();
    try (JsonParser parser = MAPPER.createParser(text)) {
      // Validated: no duplicate key to find, so no set of each object's keys to fill.
      parser.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        if (token == JsonToken.VALUE_STRING) {
          values.add(parser.getText());
        }
      }
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a validated document no longer parses: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new IllegalStateException("reading a String cannot fail with I/O", e);
    }
    return values;
  }

  private static void checkToken(String field, JsonParser parser, JsonToken token) throws IOException {
    switch (token) {
      case FIELD_NAME -> checkCharacters(field, parser, "key", parser.currentName());
      case VALUE_STRING -> checkCharacters(field, parser, "string", parser.getText());
      case VALUE_NUMBER_FLOAT -> {
        try {
          parser.getDecimalValue();
        } catch (NumberFormatException e) {
          throw invalid(field, parser.currentTokenLocation(), "number out of range: " + e.getMessage());
        }
      }
      default -> {
        // Structure, integers (always exact) and literals need no check beyond Jackson's.
      }
    }
  }

  /** The character rule of {@link Arguments#requireText}, which names {@code what} ("key" or "string"). */
  private static void checkCharacters(String field, JsonParser parser, String what, String value) {
    try {
      Checks.requireText(what, value, Integer.MAX_VALUE);
    } catch (InvalidArgumentException e) {
      throw invalid(field, parser.currentTokenLocation(), e.getMessage());
    }
  }

  private static InvalidArgumentException invalid(String field, JsonLocation location, String problem) {
    return invalid(field, location, problem, null);
  }

  private static InvalidArgumentException invalid(String field, JsonLocation location, String problem,
      Throwable cause) {
    String where = location == null || location.getLineNr() < 0
        ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    return new InvalidArgumentException(field, "invalid JSON" + where + ": " + problem, cause);
  }

  /**
   * A Jackson message in the library's own words: what is wrong, without Jackson's advice on which of its features
   * to enable or which of its constraints to raise (a caller cannot change the library's mapper, and the rules are
   * the library's own, {@link Limits}). The Jackson exception stays the cause.
   */
  static String ownWords(String jacksonMessage) {
    if (jacksonMessage == null) {
      return "not valid JSON";
    }
    String words = jacksonMessage
        // "Non-standard token 'NaN': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow"
        .replaceAll("[:;,]?\\s*(enable|disable) `[^`]*` to (allow|accept)[^.;)]*", "")
        // "(not recognized as one since Feature 'ALLOW_COMMENTS' not enabled for parser)"
        .replaceAll("\\s*\\(not recognized as one since Feature '[^']*' not enabled for parser\\)", "")
        // "(1001) exceeds the maximum allowed (1000, from `StreamReadConstraints.getMaxNestingDepth()`)"
        .replaceAll(",? from `StreamReadConstraints\\.[A-Za-z]+\\(\\)`", "")
        // any other mention of a Jackson setting
        .replaceAll("\\s*\\([^()]*(Feature|StreamReadConstraints|`)[^()]*\\)", "")
        .replaceAll("`[^`]*(Feature|Constraints)[^`]*`", "the library's JSON rules")
        .strip();
    return words.isEmpty() ? "not valid JSON" : words;
  }
}
