package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class SessionQueryTest {

  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  private static Session session(String name, String tenant, String agentId, SessionStatus status,
      Map<String, String> metadata) {
    return new Session("s", name, tenant, agentId, status, Json.emptyObject(), metadata, null, T0, T0, null, 0);
  }

  private static void assertField(ThrowingCallable call, String field) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo(field));
  }

  @Test
  void allMatchesEverySession() {
    SessionQuery all = SessionQuery.all();

    assertThat(all.limit()).isEmpty();
    assertThat(all.cursor()).isNull();
    assertThat(all.offset()).isZero();
    assertThat(all.matches(session(null, null, null, SessionStatus.ACTIVE, Map.of()))).isTrue();
    assertThat(all.matches(session("n", "t", "a", SessionStatus.ARCHIVED, Map.of("k", "v")))).isTrue();
  }

  @Test
  void matchesEveryFilterThatIsSet() {
    SessionQuery query = SessionQuery.all().status(SessionStatus.PAUSED).agentId("a").name("n").tenant("t")
        .metadata("k", "v").metadata("x", "y");
    Map<String, String> metadata = Map.of("k", "v", "x", "y", "extra", "1");

    assertThat(query.matches(session("n", "t", "a", SessionStatus.PAUSED, metadata))).isTrue();
    assertThat(query.matches(session("n", "t", "a", SessionStatus.ACTIVE, metadata))).isFalse();
    assertThat(query.matches(session("n", "t", "b", SessionStatus.PAUSED, metadata))).isFalse();
    assertThat(query.matches(session("m", "t", "a", SessionStatus.PAUSED, metadata))).isFalse();
    assertThat(query.matches(session(null, "t", "a", SessionStatus.PAUSED, metadata))).isFalse();
    assertThat(query.matches(session("n", "u", "a", SessionStatus.PAUSED, metadata))).isFalse();
    assertThat(query.matches(session("n", null, "a", SessionStatus.PAUSED, metadata))).isFalse();
    assertThat(query.matches(session("n", "t", "a", SessionStatus.PAUSED, Map.of("k", "v")))).isFalse();
    assertThat(query.matches(session("n", "t", "a", SessionStatus.PAUSED, Map.of("k", "v", "x", "Y")))).isFalse();
  }

  @Test
  void statusComparesByValue() {
    SessionQuery query = SessionQuery.all().status(SessionStatus.of("waiting_for_human"));

    assertThat(query.matches(session(null, null, null, new SessionStatus("waiting_for_human"), Map.of()))).isTrue();
    assertThat(query.matches(session(null, null, null, SessionStatus.of("Waiting_for_human"), Map.of()))).isFalse();
  }

  @Test
  void laterMetadataFilterForTheSameKeyWins() {
    SessionQuery query = SessionQuery.all().metadata("k", "old").metadata("k", "new");

    assertThat(query.metadata()).containsOnly(Map.entry("k", "new"));
  }

  @Test
  void buildersReturnCopies() {
    SessionQuery base = SessionQuery.all();
    SessionQuery limited = base.limit(10).offset(5).tenant("t");

    assertThat(base).isEqualTo(SessionQuery.all());
    assertThat(limited.limit()).isEqualTo(OptionalInt.of(10));
    assertThat(limited.offset()).isEqualTo(5);
    assertThat(limited.tenant()).isEqualTo("t");
  }

  @Test
  void metadataIsCopiedAndUnmodifiable() {
    Map<String, String> metadata = new HashMap<>(Map.of("k", "v"));
    SessionQuery query = new SessionQuery(null, null, null, null, metadata, null, OptionalInt.empty(), null, 0);
    metadata.put("other", "x");

    assertThat(query.metadata()).containsOnlyKeys("k");
    assertThatThrownBy(() -> query.metadata().put("z", "z")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void rejectsBadLimits() {
    assertField(() -> SessionQuery.all().limit(0), "limit");
    assertField(() -> SessionQuery.all().limit(-1), "limit");
    assertField(() -> new SessionQuery(null, null, null, null, Map.of(), null, OptionalInt.of(0), null, 0), "limit");
    assertField(() -> new SessionQuery(null, null, null, null, Map.of(), null, OptionalInt.of(-1), null, 0), "limit");
  }

  @Test
  void rejectsNegativeOffsetAndOffsetWithCursor() {
    assertField(() -> SessionQuery.all().offset(-1), "offset");
    assertField(() -> SessionQuery.all().after("cursor").offset(1), "offset");
    assertField(() -> SessionQuery.all().offset(1).after("cursor"), "offset");
    assertThat(SessionQuery.all().after("cursor").offset(0).cursor()).isEqualTo("cursor");
  }

  @Test
  void rejectsBadFilters() {
    assertField(() -> SessionQuery.all().status(null), "status");
    assertField(() -> SessionQuery.all().agentId(" "), "agentId");
    assertField(() -> SessionQuery.all().name(null), "name");
    assertField(() -> SessionQuery.all().tenant(""), "tenant");
    assertField(() -> SessionQuery.all().metadata(" ", "v"), "metadata key");
    assertField(() -> SessionQuery.all().metadata("k", null), "metadata[k]");
    assertField(() -> SessionQuery.all().after(null), "cursor");
    assertField(() -> SessionQuery.all().after(" "), "cursor");
  }

  @Test
  void expiresBeforeSelectsSetExpiriesStrictlyBeforeTheInstant() {
    Session base = session(null, "t", null, SessionStatus.ACTIVE, Map.of());
    SessionQuery query = SessionQuery.all().expiresBefore(T0.plusSeconds(10).plusNanos(999));

    assertThat(query.expiresBefore()).isEqualTo(T0.plusSeconds(10));
    assertThat(query.matches(withExpiry(base, T0.plusSeconds(9)))).isTrue();
    assertThat(query.matches(withExpiry(base, T0.plusSeconds(10)))).as("exactly at the instant").isFalse();
    assertThat(query.matches(withExpiry(base, T0.plusSeconds(11)))).isFalse();
    assertThat(query.matches(base)).as("no expiry").isFalse();
    assertThat(query.tenant("u").matches(withExpiry(base, T0))).as("with another filter").isFalse();
    assertField(() -> SessionQuery.all().expiresBefore(null), "expiresBefore");
  }

  private static Session withExpiry(Session session, Instant expiresAt) {
    return new Session(session.id(), session.name(), session.tenant(), session.agentId(), session.status(),
        session.settings(), session.metadata(), null, session.createdAt(), session.updatedAt(), expiresAt, 0);
  }
}
