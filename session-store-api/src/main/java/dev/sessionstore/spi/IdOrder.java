package dev.sessionstore.spi;

import dev.sessionstore.internal.ApiAccess;
import java.util.Comparator;

/**
 * The one order of ids (and names) every adapter sorts by: Unicode code point order, which is also the byte order of
 * their UTF-8 encoding and PostgreSQL's {@code COLLATE "C"}. It differs from {@link String#compareTo}, which
 * compares UTF-16 units and so puts characters beyond U+FFFF before U+E000..U+FFFF.
 */
public final class IdOrder {

  /** Compares two ids by code point. */
  public static final Comparator<String> BY_CODE_POINT = IdOrder::compare;

  private static final ApiAccess API = ApiAccess.get();

  private IdOrder() {
  }

  /** Negative, zero or positive as {@code a} sorts before, equal to or after {@code b}. */
  public static int compare(String a, String b) {
    return API.compareIds(a, b);
  }
}
