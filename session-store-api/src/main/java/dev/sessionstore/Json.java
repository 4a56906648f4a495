package dev.sessionstore;

import java.util.Map;
import java.util.Optional;

/**
 * An immutable, validated JSON document (RFC 8259): the payload type of events, settings, tool arguments and
 * results, summaries and model-call audit rows. Payloads are data; nothing is ever deserialized into classes.
 *
 * <p>Every {@code Json} is accepted by every adapter. Construction rejects, with {@link InvalidArgumentException}:
 * text that is not JSON (including {@code NaN} and infinities), duplicate object keys, text longer than
 * {@link Limits#MAX_JSON_LENGTH}, nesting deeper than {@link Limits#MAX_JSON_DEPTH} (never a stack overflow),
 * U+0000 and unpaired surrogates in strings (PostgreSQL {@code jsonb} cannot store them), and numbers outside the
 * range of an exact decimal ({@code 10^131072}, 16383 fraction digits).
 *
 * <p>Numbers are kept exactly: no rounding of big integers or long decimals. {@link #text()} is the document as
 * written (a backend may return an equivalent rendering with other whitespace or key order). Equality is semantic:
 * two documents are equal when they have the same values, regardless of whitespace, object key order or the
 * notation of equal numbers ({@code 100}, {@code 1e2}, {@code 100.0}).
 */
public final class Json {

  private static final Json EMPTY_OBJECT = new Json("{}");

  private final String text;
  /** Computed on first use; a benign race may compute it twice. */
  private String canonical;

  private Json(String text) {
    this.text = text;
  }

  /** Parses {@code text}; a rejection names the field {@code "json"}. */
  public static Json of(String text) {
    return parse("json", text);
  }

  /** Parses {@code text}; a rejection names {@code field}. */
  public static Json parse(String field, String text) {
    if (text == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    if (text.length() > Limits.MAX_JSON_LENGTH) {
      throw new InvalidArgumentException(
          field, "JSON longer than " + Limits.MAX_JSON_LENGTH + " chars (" + text.length() + ")");
    }
    new JsonParser(field, text).parseDocument();
    return new Json(text);
  }

  /** The empty object {@code {}}, the default for every optional document. */
  public static Json emptyObject() {
    return EMPTY_OBJECT;
  }

  /** The document text. */
  public String text() {
    return text;
  }

  /**
   * A rendering with sorted keys, no whitespace and normalized numbers; equal documents have equal canonical text.
   */
  public String canonicalText() {
    String result = canonical;
    if (result == null) {
      result = JsonCanonical.render(tree());
      canonical = result;
    }
    return result;
  }

  /** Whether the document is a JSON object. */
  public boolean isObject() {
    return text.stripLeading().startsWith("{");
  }

  /**
   * The value of a top-level member when the document is an object and that member is a string; empty otherwise.
   */
  public Optional<String> stringMember(String name) {
    if (isObject() && tree() instanceof Map<?, ?> map && map.get(name) instanceof String value) {
      return Optional.of(value);
    }
    return Optional.empty();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Json json && canonicalText().equals(json.canonicalText());
  }

  @Override
  public int hashCode() {
    return canonicalText().hashCode();
  }

  private Object tree() {
    return new JsonParser("json", text).parseDocument();
  }

  /** The document text. */
  @Override
  public String toString() {
    return text;
  }
}
