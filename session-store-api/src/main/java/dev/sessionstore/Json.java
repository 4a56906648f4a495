package dev.sessionstore;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.util.Optional;

/**
 * An immutable, validated JSON document (RFC 8259): the payload type of events, settings, tool arguments and
 * results, run usage and errors, summaries and model-call audit rows. Jackson is the JSON library: documents are
 * made from text ({@link #of}), from any value a Jackson {@link ObjectMapper} can write ({@link #from}: a
 * {@link JsonNode}, a {@code Map}, a {@code List}, a record or bean, a string, number or boolean), and read back as
 * text ({@link #text}), as a tree ({@link #tree}) or as a mapped object ({@link #as}). The store itself never maps a
 * document to a class: payloads are data (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#15">15</a>).
 *
 * <p><b>The same bytes on every adapter</b> (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#18">18</a>). A document's text is fixed when it is
 * made and every adapter returns exactly that text: {@link #of} keeps the caller's text verbatim (whitespace, key
 * order, number notation, escapes), and {@link #from} renders compact text once, with keys in the order the mapper
 * writes them.
 *
 * <p><b>What every adapter accepts.</b> Construction rejects, with an {@link InvalidArgumentException} naming the
 * field and giving the line and column of the problem: text that is not exactly one JSON value (comments, trailing
 * commas, single quotes, leading zeros, {@code NaN} and infinities, a second document); duplicate object keys; text
 * longer than {@link Limits#MAX_JSON_LENGTH} chars; nesting deeper than {@link Limits#MAX_JSON_DEPTH} (rejected as the
 * parser reaches the bound, never a stack overflow, however deep the text); numbers longer than
 * {@link Limits#MAX_JSON_NUMBER_LENGTH} chars or with an exponent no {@link java.math.BigDecimal} holds; U+0000 and
 * unpaired surrogates in strings and keys, raw or escaped (not every backend can store them).
 *
 * <p><b>Numbers are exact</b>: nothing is rounded through a {@code double}. Trees hold integers as int, long or
 * {@link java.math.BigInteger} nodes by size and other numbers as {@link java.math.BigDecimal} nodes with the scale
 * written ({@code 100.0} stays {@code 100.0}); untyped targets of {@link #as} ({@code Object}, {@code Map}) get
 * {@code BigDecimal} for every number with a fraction or exponent.
 *
 * <p><b>Equality is semantic</b>: two documents are equal when they hold the same values, whatever the whitespace,
 * the order of object keys, the escaping of characters or the notation of equal numbers ({@code 100}, {@code 1e2},
 * {@code 100.0}); {@link #hashCode} agrees. Duplicate-event detection relies on it (guarantee <a href="{@docRoot}/dev/sessionstore/doc-files/guarantees.html#3">3</a>).
 *
 * <p>Instances are immutable and thread-safe. A {@code Json} written by a caller's mapper inside a larger value is
 * written as the document it holds ({@link #tree}).
 */
public final class Json {

  private static final String FIELD = "json";
  private static final Json EMPTY_OBJECT = new Json("{}");

  private final String text;
  /** Computed on first use; a race computes the same value twice, as {@link String#hashCode} does. */
  private int hash;
  private boolean hashIsZero;
  /**
   * The searched words ({@link IndexText}), made on first use and kept: a document appended once has them read once,
   * and one never searched (metadata, a checkpoint state, a model call's prompt) never spends the work. A race
   * computes the same value twice.
   */
  private String indexText;

  private Json(String text) {
    this.text = text;
  }

  /**
   * The document {@code text}, kept verbatim.
   *
   * @throws InvalidArgumentException naming the field {@code json} if {@code text} is null or not a storable
   *                                  document (see the class description)
   */
  public static Json of(String text) {
    return parse(FIELD, text);
  }

  /**
   * The document {@code text}, kept verbatim; like {@link #of} but a rejection names {@code field}, for callers that
   * know which field the text is for (for example {@code "event.payload"}).
   *
   * @throws InvalidArgumentException naming {@code field} if {@code text} is null or not a storable document
   */
  public static Json parse(String field, String text) {
    Checks.requireNonNull("field", field);
    JsonRules.validate(field, text);
    return new Json(text);
  }

  /**
   * The document whose text a store wrote from a {@code Json} and read back unchanged, not checked again. Not part
   * of the user's view: adapters reach it through {@code dev.sessionstore.spi.StoredJson#of}, by way of
   * {@link SpiBridge}.
   *
   * @throws InvalidArgumentException naming the field {@code json} if {@code text} is null or longer than any
   *                                  document
   */
  static Json ofStored(String text) {
    Checks.requireNonNull(FIELD, text);
    if (text.length() > Limits.MAX_JSON_LENGTH) {
      throw new InvalidArgumentException(FIELD, "longer than any stored document (" + text.length() + " chars)");
    }
    return new Json(text);
  }

  /**
   * The document the project's mapper writes for {@code value}: compact text, object keys in the order Jackson
   * writes them (insertion order for a {@code LinkedHashMap} or an {@code ObjectNode}, declaration order for a
   * record). A {@link String} becomes a JSON string document, not parsed text (use {@link #of} for that); a
   * {@code Json} is returned as is.
   *
   * @throws InvalidArgumentException naming the field {@code json} if {@code value} is null, cannot be written by
   *                                  Jackson, or writes a document that is not storable (for example a
   *                                  {@code NaN} double, or nesting past {@link Limits#MAX_JSON_DEPTH})
   */
  public static Json from(Object value) {
    return from(value, JsonRules.MAPPER);
  }

  /**
   * The document {@code mapper} writes for {@code value}, as {@link #from(Object)} but with the caller's mapper
   * (naming strategy, modules, date formats, indentation). The text it writes is validated like any other: a mapper
   * cannot widen what a document may hold, and the store never reads a document back through it.
   *
   * @throws InvalidArgumentException naming the field {@code json} if {@code value} is null, cannot be written by
   *                                  {@code mapper}, or writes a document that is not storable; naming
   *                                  {@code mapper} if it is null
   */
  public static Json from(Object value, ObjectMapper mapper) {
    Checks.requireNonNull(FIELD, value);
    Checks.requireNonNull("mapper", mapper);
    if (value instanceof Json json) {
      return json;
    }
    String text;
    try {
      text = mapper.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new InvalidArgumentException(FIELD, "cannot write a " + value.getClass().getName() + " as JSON: "
          + JsonRules.ownWords(e.getOriginalMessage()), e);
    }
    return parse(FIELD, text);
  }

  /** The empty object {@code {}}, the default for every optional document. */
  public static Json emptyObject() {
    return EMPTY_OBJECT;
  }

  /** The document text, exactly as made by {@link #of} or {@link #from}, and as every adapter returns it. */
  public String text() {
    return text;
  }

  /**
   * The document as a new Jackson tree, which the caller owns: changing it changes nothing in this document or in
   * the store. Numbers are exact (see the class description). Each call parses the text again.
   */
  @JsonValue
  public JsonNode tree() {
    return JsonRules.tree(text);
  }

  /**
   * The document mapped to {@code type} by the project's mapper: floats as {@link java.math.BigDecimal} where the
   * target is untyped, no default typing, and <b>unknown properties ignored</b>, so that a payload written by a newer
   * version of a record (with a field added) still reads with an older one. Use {@link #asStrict(Class)} to reject
   * them.
   *
   * @throws InvalidArgumentException naming the field {@code type} if it is null or the document does not map to it
   */
  public <T> T as(Class<T> type) {
    Checks.requireNonNull("type", type);
    return read(JsonRules.MAPPER.readerFor(type), false, type.getTypeName());
  }

  /**
   * As {@link #as(Class)}, but a property of the document that {@code type} does not declare is an error: for
   * readers that must notice a payload they do not fully understand.
   *
   * @throws InvalidArgumentException naming the field {@code type} if it is null or the document does not map to it,
   *                                  naming the unknown property
   */
  public <T> T asStrict(Class<T> type) {
    Checks.requireNonNull("type", type);
    return read(JsonRules.MAPPER.readerFor(type), true, type.getTypeName());
  }

  /**
   * The document mapped to a generic {@code type} (such as {@code new TypeReference<List<Item>>() {}}) by the
   * project's mapper, unknown properties ignored as by {@link #as(Class)}.
   *
   * @throws InvalidArgumentException naming the field {@code type} if it is null or the document does not map to it
   */
  public <T> T as(TypeReference<T> type) {
    Checks.requireNonNull("type", type);
    return read(JsonRules.MAPPER.readerFor(type), false, type.getType().getTypeName());
  }

  /**
   * As {@link #as(TypeReference)}, unknown properties rejected as by {@link #asStrict(Class)}.
   *
   * @throws InvalidArgumentException naming the field {@code type} if it is null or the document does not map to it
   */
  public <T> T asStrict(TypeReference<T> type) {
    Checks.requireNonNull("type", type);
    return read(JsonRules.MAPPER.readerFor(type), true, type.getType().getTypeName());
  }

  private <T> T read(ObjectReader reader, boolean strict, String typeName) {
    try {
      return strict ? reader.with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(text)
          : reader.without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(text);
    } catch (JsonProcessingException e) {
      throw unmappable(typeName, e);
    }
  }

  /**
   * The document mapped to {@code type} by the caller's {@code mapper}, with whatever that mapper enables.
   *
   * @throws InvalidArgumentException naming {@code type} if it is null or the document does not map to it; naming
   *                                  {@code mapper} if it is null
   */
  public <T> T as(Class<T> type, ObjectMapper mapper) {
    Checks.requireNonNull("type", type);
    Checks.requireNonNull("mapper", mapper);
    try {
      return mapper.readValue(text, type);
    } catch (JsonProcessingException e) {
      throw unmappable(type.getTypeName(), e);
    }
  }

  /**
   * The document mapped to a generic {@code type} by the caller's {@code mapper}.
   *
   * @throws InvalidArgumentException naming {@code type} if it is null or the document does not map to it; naming
   *                                  {@code mapper} if it is null
   */
  public <T> T as(TypeReference<T> type, ObjectMapper mapper) {
    Checks.requireNonNull("type", type);
    Checks.requireNonNull("mapper", mapper);
    try {
      return mapper.readValue(text, type);
    } catch (JsonProcessingException e) {
      throw unmappable(type.getType().getTypeName(), e);
    }
  }

  /**
   * The document's searched words as an index holds them ({@link IndexText}). Not part of the user's view: adapters
   * reach it through {@code dev.sessionstore.spi.SearchText#indexText}, by way of {@link SpiBridge}.
   */
  String indexText() {
    String result = indexText;
    if (result == null) {
      result = IndexText.of(JsonRules.stringValues(text));
      indexText = result;
    }
    return result;
  }

  /** Whether the document is a JSON object. */
  public boolean isObject() {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return c == '{';
      }
    }
    return false;
  }

  /**
   * The value of a top-level member when the document is an object and that member is a string; empty otherwise.
   * Reads the top level only, without building a tree.
   */
  public Optional<String> stringMember(String name) {
    Checks.requireNonNull("name", name);
    if (!isObject()) {
      return Optional.empty();
    }
    try (JsonParser parser = JsonRules.MAPPER.createParser(text)) {
      parser.nextToken();
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        boolean wanted = name.equals(parser.currentName());
        JsonToken value = parser.nextToken();
        if (wanted) {
          return value == JsonToken.VALUE_STRING ? Optional.of(parser.getText()) : Optional.empty();
        }
        parser.skipChildren();
      }
      return Optional.empty();
    } catch (IOException e) {
      throw new IllegalStateException("a validated document no longer parses", e);
    }
  }

  /**
   * Whether {@code other} is a {@code Json} holding the same values (see the class description), whatever its text.
   */
  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    return other instanceof Json json && (text.equals(json.text) || JsonValues.equal(tree(), json.tree()));
  }

  /** A hash consistent with {@link #equals}: equal for documents holding the same values. */
  @Override
  public int hashCode() {
    int result = hash;
    if (result == 0 && !hashIsZero) {
      result = JsonValues.hash(tree());
      if (result == 0) {
        hashIsZero = true;
      } else {
        hash = result;
      }
    }
    return result;
  }

  /** The document text. */
  @Override
  public String toString() {
    return text;
  }

  private static InvalidArgumentException unmappable(String type, JsonProcessingException e) {
    return new InvalidArgumentException("type", "the document does not map to " + type + ": "
        + JsonRules.ownWords(e.getOriginalMessage()), e);
  }
}
