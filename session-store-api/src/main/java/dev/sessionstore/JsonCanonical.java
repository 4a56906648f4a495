package dev.sessionstore;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Renders a parsed JSON tree in canonical form: keys in sorted order, no whitespace, numbers as the shortest exact
 * decimal ({@code 1E+2} for 100, {@code 0} for every zero). Equal documents render to equal text.
 */
final class JsonCanonical {

  private JsonCanonical() {
  }

  static String render(Object tree) {
    StringBuilder out = new StringBuilder();
    write(tree, out);
    return out.toString();
  }

  private static void write(Object value, StringBuilder out) {
    if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> member : map.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        writeString((String) member.getKey(), out);
        out.append(':');
        write(member.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(list.get(i), out);
      }
      out.append(']');
    } else if (value instanceof String string) {
      writeString(string, out);
    } else if (value instanceof BigDecimal number) {
      out.append(number.signum() == 0 ? "0" : number.stripTrailingZeros().toString());
    } else {
      out.append(value);
    }
  }

  private static void writeString(String value, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
