package dev.sessionstore.jdbc.internal;

/**
 * Undoes the whitespace PostgreSQL adds when it prints {@code jsonb} ({@code {"a": 1, "b": [1, 2]}}), so that a
 * document read back is no longer than the one written and stays within {@link dev.sessionstore.Limits}. Only
 * spaces outside string literals are dropped; values are untouched.
 */
final class JsonbText {

  private JsonbText() {
  }

  static String compact(String jsonbText) {
    if (jsonbText.indexOf(' ') < 0) {
      return jsonbText;
    }
    StringBuilder out = new StringBuilder(jsonbText.length());
    boolean inString = false;
    for (int i = 0; i < jsonbText.length(); i++) {
      char c = jsonbText.charAt(i);
      if (inString) {
        out.append(c);
        if (c == '\\') {
          out.append(jsonbText.charAt(++i));
        } else if (c == '"') {
          inString = false;
        }
      } else if (c != ' ') {
        out.append(c);
        inString = c == '"';
      }
    }
    return out.toString();
  }
}
