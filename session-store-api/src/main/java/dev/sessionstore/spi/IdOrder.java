package dev.sessionstore.spi;

import java.util.Comparator;

/**
 * The one order of ids (and names) every adapter sorts by: Unicode code point order, which is also the byte order of
 * their UTF-8 encoding and PostgreSQL's {@code COLLATE "C"}. It differs from {@link String#compareTo}, which
 * compares UTF-16 units and so puts characters beyond U+FFFF before U+E000..U+FFFF.
 */
public final class IdOrder {

  /** Compares two ids by code point. */
  public static final Comparator<String> BY_CODE_POINT = IdOrder::compare;

  private IdOrder() {
  }

  /** Negative, zero or positive as {@code a} sorts before, equal to or after {@code b}. */
  public static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int left = a.codePointAt(i);
      int right = b.codePointAt(j);
      if (left != right) {
        return Integer.compare(left, right);
      }
      i += Character.charCount(left);
      j += Character.charCount(right);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }
}
