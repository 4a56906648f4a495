package dev.sessionstore.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SessionCursorTest {

  private static final Instant CREATED = Instant.parse("2030-01-01T10:00:00.123456Z");

  private static Session session(String id, Instant createdAt) {
    return new Session(id, null, null, null, SessionStatus.ACTIVE, Json.emptyObject(), Map.of(), null, createdAt,
        createdAt, null, 0);
  }

  private static String base64(String text) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @ValueSource(strings = {"s", "session:with:colons", "caf\u00e9 \ud83d\ude00", " spaced ", "a/b+c=d"})
  void roundTripsThroughItsTextForm(String id) {
    SessionCursor cursor = SessionCursor.after(session(id, CREATED));

    SessionCursor decoded = SessionCursor.decode(cursor.encode());

    assertThat(decoded).isEqualTo(cursor);
    assertThat(decoded.id()).isEqualTo(id);
    assertThat(decoded.createdAt()).isEqualTo(CREATED);
  }

  @Test
  void roundTripsInstantsBeforeTheEpoch() {
    SessionCursor cursor = new SessionCursor(Instant.parse("1969-12-31T23:59:59.999999Z"), "old");

    assertThat(SessionCursor.decode(cursor.encode())).isEqualTo(cursor);
  }

  @ParameterizedTest
  @ValueSource(strings = {"+100000-01-01T00:00:00.000001Z", "-5000-06-15T12:00:00.999999Z", "2500-01-01T00:00:00Z"})
  void roundTripsInstantsCenturiesFromTheEpoch(String instant) {
    SessionCursor cursor = new SessionCursor(Instant.parse(instant), "far");

    assertThat(SessionCursor.decode(cursor.encode())).isEqualTo(cursor);
  }

  @Test
  void roundTripsTheLongestIdsAndIsAcceptedByTheQuery() {
    String longest = "\u00e9".repeat(Limits.MAX_KEY_LENGTH);
    String encoded = SessionCursor.after(session(longest, CREATED)).encode();

    assertThat(SessionCursor.decode(encoded).id()).isEqualTo(longest);
    assertThat(SessionQuery.all().after(encoded).cursor()).isEqualTo(encoded);
  }

  @Test
  void isUrlSafeText() {
    String encoded = SessionCursor.after(session("???>>>~~~", CREATED)).encode();

    assertThat(encoded).matches("[A-Za-z0-9_-]+");
  }

  @Test
  void truncatesToMicroseconds() {
    SessionCursor cursor = new SessionCursor(Instant.parse("2030-01-01T00:00:00.123456789Z"), "s");

    assertThat(cursor.createdAt()).isEqualTo("2030-01-01T00:00:00.123456Z");
  }

  @Test
  void precedesLaterSessionsInListingOrder() {
    SessionCursor cursor = SessionCursor.after(session("m", CREATED));

    assertThat(cursor.precedes(session("z", CREATED.minusNanos(1000)))).isFalse();
    assertThat(cursor.precedes(session("a", CREATED))).isFalse();
    assertThat(cursor.precedes(session("m", CREATED))).isFalse();
    assertThat(cursor.precedes(session("n", CREATED))).isTrue();
    assertThat(cursor.precedes(session("a", CREATED.plusNanos(1000)))).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "not base64!", "%%%", "abc", "AAAA", "bm8tY29sb24", "eDp5", "OnNlc3Npb24", "MTIzOg", "MTIzOiAg",
      "MTIzOgA", "OTk5OTk5OTk5OTk5OTk5OTk5OTk5Olg"
  })
  void rejectsGarbageNamingTheCursor(String garbage) {
    assertThatThrownBy(() -> SessionCursor.decode(garbage))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("cursor"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"123:a", "123:-1:a", "123:1000000:a", "x:0:a", "123:0", "99999999999999999999:0:a",
      "31556889864403200:0:a"})
  void rejectsMalformedPositionsNamingTheCursor(String text) {
    String garbage = base64(text);
    assertThatThrownBy(() -> SessionCursor.decode(garbage))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("cursor"));
  }

  @Test
  void rejectsDecodedIdsThatAreNotValidKeysNamingTheCursor() {
    for (String text : new String[] {"123:0:", "123:0: ", "123:0:a\u0000b",
        "123:0:" + "x".repeat(Limits.MAX_KEY_LENGTH + 1)}) {
      assertThatThrownBy(() -> SessionCursor.decode(base64(text)))
          .as(text)
          .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("cursor"));
    }
  }

  @Test
  void rejectsNullBlankAndTextLongerThanAnyCursor() {
    for (String text : new String[] {null, "", " ", "A".repeat(2_000)}) {
      assertThatThrownBy(() -> SessionCursor.decode(text))
          .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("cursor"));
    }
  }
}
