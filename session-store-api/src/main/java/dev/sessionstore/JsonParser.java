package dev.sessionstore;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A strict, iterative-depth-bounded RFC 8259 parser producing a tree of {@link TreeMap} (sorted keys),
 * {@link List}, {@link String}, {@link BigDecimal}, {@link Boolean} and {@link #NULL}. Recursion depth is capped by
 * {@link Limits#MAX_JSON_DEPTH}, so hostile input cannot overflow the stack.
 */
final class JsonParser {

  /** Marker for JSON {@code null} (maps cannot hold Java null as a meaningful value). */
  static final Object NULL = new Object() {
    @Override
    public String toString() {
      return "null";
    }
  };

  /** Largest number of integer digits an exact decimal keeps (PostgreSQL numeric). */
  private static final int MAX_INTEGER_DIGITS = 131_072;
  /** Largest number of fraction digits an exact decimal keeps (PostgreSQL numeric). */
  private static final int MAX_FRACTION_DIGITS = 16_383;
  /** Where exponents saturate: past every bound above, yet far from overflowing a long in the range arithmetic. */
  private static final long EXPONENT_CAP = 1L << 40;

  private final String field;
  private final String text;
  private int pos;

  JsonParser(String field, String text) {
    this.field = field;
    this.text = text;
  }

  Object parseDocument() {
    skipWhitespace();
    Object value = parseValue(1);
    skipWhitespace();
    if (pos != text.length()) {
      throw fail("unexpected content after the document");
    }
    return value;
  }

  private Object parseValue(int depth) {
    if (pos >= text.length()) {
      throw fail("unexpected end of document");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return parseObject(depth);
      case '[':
        return parseArray(depth);
      case '"':
        return parseString();
      case 't':
        expectWord("true");
        return Boolean.TRUE;
      case 'f':
        expectWord("false");
        return Boolean.FALSE;
      case 'n':
        expectWord("null");
        return NULL;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return parseNumber();
        }
        throw fail("unexpected character '" + printable(c) + "'");
    }
  }

  private Map<String, Object> parseObject(int depth) {
    checkDepth(depth);
    pos++;
    TreeMap<String, Object> members = new TreeMap<>();
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return Collections.unmodifiableMap(members);
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw fail("expected an object key");
      }
      String key = parseString();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      Object value = parseValue(depth + 1);
      if (members.put(key, value) != null) {
        throw fail("duplicate object key \"" + key + "\"");
      }
      skipWhitespace();
      char c = peek();
      pos++;
      if (c == '}') {
        return Collections.unmodifiableMap(members);
      }
      if (c != ',') {
        pos--;
        throw fail("expected ',' or '}'");
      }
    }
  }

  private List<Object> parseArray(int depth) {
    checkDepth(depth);
    pos++;
    List<Object> items = new ArrayList<>();
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return Collections.unmodifiableList(items);
    }
    while (true) {
      skipWhitespace();
      items.add(parseValue(depth + 1));
      skipWhitespace();
      char c = peek();
      pos++;
      if (c == ']') {
        return Collections.unmodifiableList(items);
      }
      if (c != ',') {
        pos--;
        throw fail("expected ',' or ']'");
      }
    }
  }

  private String parseString() {
    pos++;
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw fail("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c == '\\') {
        appendEscape(out);
      } else if (c < 0x20) {
        pos--;
        throw fail("unescaped control character U+" + String.format("%04X", (int) c) + " in a string");
      } else if (Character.isHighSurrogate(c)) {
        if (pos < text.length() && Character.isLowSurrogate(text.charAt(pos))) {
          out.append(c).append(text.charAt(pos++));
        } else {
          throw fail("unpaired surrogate in a string");
        }
      } else if (Character.isLowSurrogate(c)) {
        throw fail("unpaired surrogate in a string");
      } else {
        out.append(c);
      }
    }
  }

  private void appendEscape(StringBuilder out) {
    if (pos >= text.length()) {
      throw fail("unterminated escape");
    }
    char c = text.charAt(pos++);
    switch (c) {
      case '"' -> out.append('"');
      case '\\' -> out.append('\\');
      case '/' -> out.append('/');
      case 'b' -> out.append('\b');
      case 'f' -> out.append('\f');
      case 'n' -> out.append('\n');
      case 'r' -> out.append('\r');
      case 't' -> out.append('\t');
      case 'u' -> appendUnicodeEscape(out);
      default -> throw fail("invalid escape \\" + printable(c));
    }
  }

  private void appendUnicodeEscape(StringBuilder out) {
    char unit = readHex4();
    if (unit == 0) {
      throw fail("\\u0000 is not storable by every backend (PostgreSQL jsonb)");
    }
    if (Character.isHighSurrogate(unit)) {
      if (pos + 1 < text.length() && text.charAt(pos) == '\\' && text.charAt(pos + 1) == 'u') {
        pos += 2;
        char low = readHex4();
        if (Character.isLowSurrogate(low)) {
          out.append(unit).append(low);
          return;
        }
      }
      throw fail("unpaired surrogate escape in a string");
    }
    if (Character.isLowSurrogate(unit)) {
      throw fail("unpaired surrogate escape in a string");
    }
    out.append(unit);
  }

  private char readHex4() {
    if (pos + 4 > text.length()) {
      throw fail("truncated \\u escape");
    }
    int value = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(text.charAt(pos++), 16);
      if (digit < 0) {
        throw fail("invalid hex digit in \\u escape");
      }
      value = value * 16 + digit;
    }
    return (char) value;
  }

  private BigDecimal parseNumber() {
    boolean negative = peek() == '-';
    if (negative) {
      pos++;
    }
    int integerStart = pos;
    if (peek() == '0') {
      pos++;
    } else if (isDigit(peek())) {
      skipDigits();
    } else {
      throw fail("invalid number");
    }
    String digits = text.substring(integerStart, pos);
    int fractionDigits = 0;
    if (peek() == '.') {
      pos++;
      if (!isDigit(peek())) {
        throw fail("invalid number: digits must follow '.'");
      }
      int fractionStart = pos;
      skipDigits();
      fractionDigits = pos - fractionStart;
      digits += text.substring(fractionStart, pos);
    }
    long exponent = 0;
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      boolean negativeExponent = peek() == '-';
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      if (!isDigit(peek())) {
        throw fail("invalid number: digits must follow the exponent");
      }
      exponent = negativeExponent ? -readExponent() : readExponent();
    }
    return exactDecimal(negative, digits, fractionDigits, exponent);
  }

  /**
   * The value {@code ±digits × 10^(exponent - fractionDigits)}, checked against the exact decimal range on the digit
   * text before any arithmetic, so that out-of-range numbers of any length are rejected in linear time and only
   * significant digits are ever converted.
   */
  private BigDecimal exactDecimal(boolean negative, String digits, int fractionDigits, long exponent) {
    int first = 0;
    while (first < digits.length() && digits.charAt(first) == '0') {
      first++;
    }
    if (first == digits.length()) {
      if (Math.abs(fractionDigits - exponent) > Integer.MAX_VALUE) {
        throw fail("number out of range");
      }
      return BigDecimal.ZERO;
    }
    int last = digits.length() - 1;
    while (digits.charAt(last) == '0') {
      last--;
    }
    long precision = last - first + 1L;
    long scale = fractionDigits - exponent - (digits.length() - 1L - last);
    if (precision - scale > MAX_INTEGER_DIGITS || scale > MAX_FRACTION_DIGITS) {
      throw fail("number out of the exact decimal range");
    }
    BigDecimal value = new BigDecimal(new BigInteger(digits.substring(first, last + 1)), (int) scale);
    return negative ? value.negate() : value;
  }

  /** The exponent's digits as a number, saturated far beyond any exponent the exact decimal range allows. */
  private long readExponent() {
    long value = 0;
    while (isDigit(peek())) {
      value = Math.min(EXPONENT_CAP, value * 10 + (text.charAt(pos++) - '0'));
    }
    return value;
  }

  private void skipDigits() {
    while (isDigit(peek())) {
      pos++;
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private void expectWord(String word) {
    if (!text.startsWith(word, pos)) {
      throw fail("invalid literal");
    }
    pos += word.length();
  }

  private void expect(char c) {
    if (peek() != c) {
      throw fail("expected '" + c + "'");
    }
    pos++;
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\uFFFF';
  }

  private void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private void checkDepth(int depth) {
    if (depth > Limits.MAX_JSON_DEPTH) {
      throw fail("nested deeper than " + Limits.MAX_JSON_DEPTH + " levels");
    }
  }

  private InvalidArgumentException fail(String problem) {
    return new InvalidArgumentException(field, "invalid JSON at offset " + pos + ": " + problem);
  }

  private static String printable(char c) {
    return c < 0x20 || c == '\uFFFF' ? String.format("U+%04X", (int) c) : String.valueOf(c);
  }
}
