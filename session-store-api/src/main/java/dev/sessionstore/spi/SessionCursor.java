package dev.sessionstore.spi;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.Session;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Base64;

/**
 * The keyset position of a session in listing order (creation time, then id), encoded as the opaque cursor of
 * {@link dev.sessionstore.SessionPage}. Shared so cursors mean the same in every adapter.
 */
public record SessionCursor(Instant createdAt, String id) {

  /**
   * The longest text {@link #encode()} produces: base64 of the epoch seconds (at most 20 chars), the micros of the
   * second (at most 6), two colons and the UTF-8 of the longest id (at most 3 bytes per char).
   */
  private static final int MAX_ENCODED_LENGTH = (4 * (28 + 3 * Limits.MAX_KEY_LENGTH) + 2) / 3;

  private static final int MICROS_PER_SECOND = 1_000_000;

  /**
   * Builds the record, checking its members as described on the type.
   * @throws dev.sessionstore.InvalidArgumentException naming the first member (as {@code field}) that is null or
   *   invalid
   */
  public SessionCursor {
    createdAt = Arguments.requireInstant("cursor.createdAt", createdAt);
    Arguments.requireKey("cursor.id", id);
  }

  /** The position just after {@code session}. */
  public static SessionCursor after(Session session) {
    return new SessionCursor(session.createdAt(), session.id());
  }

  /**
   * Decodes a cursor made by {@link #encode()}.
   *
   * @throws InvalidArgumentException naming {@code "cursor"} if it is not one
   */
  public static SessionCursor decode(String cursor) {
    if (Arguments.requireNonNull("cursor", cursor).isBlank()) {
      throw new InvalidArgumentException("cursor", "must not be blank");
    }
    Arguments.requireText("cursor", cursor, MAX_ENCODED_LENGTH);
    try {
      String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      int secondsEnd = text.indexOf(':');
      int microsEnd = text.indexOf(':', secondsEnd + 1);
      long seconds = Long.parseLong(text.substring(0, secondsEnd));
      int micros = Integer.parseInt(text.substring(secondsEnd + 1, microsEnd));
      if (micros < 0 || micros >= MICROS_PER_SECOND) {
        throw new InvalidArgumentException("cursor", "not a cursor returned by this store");
      }
      Instant createdAt = Instant.ofEpochSecond(seconds, micros * 1_000L);
      return new SessionCursor(createdAt, text.substring(microsEnd + 1));
    } catch (IllegalArgumentException | IndexOutOfBoundsException | DateTimeException
        | InvalidArgumentException e) {
      throw new InvalidArgumentException("cursor", "not a cursor returned by this store");
    }
  }

  /** The opaque text form. */
  public String encode() {
    String text = createdAt.getEpochSecond() + ":" + createdAt.getNano() / 1_000 + ":" + id;
    return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Whether {@code session} comes after this position in listing order. */
  public boolean precedes(Session session) {
    int byTime = session.createdAt().compareTo(createdAt);
    return byTime > 0 || (byTime == 0 && IdOrder.compare(session.id(), id) > 0);
  }
}
