package dev.sessionstore;

import dev.sessionstore.spi.Upserts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class SessionWriteTest {

  private static final Instant CREATED = Instant.parse("2030-01-01T00:00:00Z");
  private static final Instant LATER = CREATED.plusSeconds(60);

  private static Session stored() {
    return Upserts.session(SessionWrite.of("s")
        .withName("name")
        .withTenant("tenant")
        .withAgentId("agent")
        .withStatus(SessionStatus.PAUSED)
        .withSettings(Json.of("{\"model\":\"m\"}"))
        .withMetadata(Map.of("keep", "1", "drop", "2", "change", "3"))
        , null, CREATED);
  }

  @Test
  void newSessionTakesTheDefaults() {
    Session session = Upserts.session(SessionWrite.of("s"), null, CREATED);

    assertThat(session.id()).isEqualTo("s");
    assertThat(session.name()).isNull();
    assertThat(session.tenant()).isNull();
    assertThat(session.agentId()).isNull();
    assertThat(session.status()).isEqualTo(SessionStatus.ACTIVE);
    assertThat(session.settings()).isEqualTo(Json.emptyObject());
    assertThat(session.metadata()).isEmpty();
    assertThat(session.forkOrigin()).isEmpty();
    assertThat(session.createdAt()).isEqualTo(CREATED);
    assertThat(session.updatedAt()).isEqualTo(CREATED);
  }

  @Test
  void newSessionTakesTheWrittenFields() {
    Session session = stored();

    assertThat(session.name()).isEqualTo("name");
    assertThat(session.tenant()).isEqualTo("tenant");
    assertThat(session.agentId()).isEqualTo("agent");
    assertThat(session.status()).isEqualTo(SessionStatus.PAUSED);
    assertThat(session.settings()).isEqualTo(Json.of("{\"model\":\"m\"}"));
    assertThat(session.metadata()).containsOnly(Map.entry("keep", "1"), Map.entry("drop", "2"),
        Map.entry("change", "3"));
  }

  @Test
  void omittedFieldsKeepTheirStoredValues() {
    Session updated = Upserts.session(SessionWrite.of("s"), stored(), LATER);

    assertThat(updated).usingRecursiveComparison().ignoringFields("updatedAt").isEqualTo(stored());
    assertThat(updated.createdAt()).isEqualTo(CREATED);
    assertThat(updated.updatedAt()).isEqualTo(LATER);
  }

  @Test
  void writtenFieldsReplaceStoredValues() {
    Session updated = Upserts.session(SessionWrite.of("s")
        .withName("renamed")
        .withStatus(SessionStatus.of("waiting_for_human"))
        .withSettings(Json.of("{\"resume_policy\":\"eager\"}"))
        , stored(), LATER);

    assertThat(updated.name()).isEqualTo("renamed");
    assertThat(updated.status().value()).isEqualTo("waiting_for_human");
    assertThat(updated.settings().text()).isEqualTo("{\"resume_policy\":\"eager\"}");
    assertThat(updated.resumesEagerly()).isTrue();
    assertThat(updated.tenant()).isEqualTo("tenant");
    assertThat(updated.agentId()).isEqualTo("agent");
  }

  @Test
  void metadataIsMergedAndNullRemovesAKey() {
    Session updated = Upserts.session(SessionWrite.of("s")
        .withMetadata("drop", null)
        .withMetadata("change", "30")
        .withMetadata("add", "4")
        .withMetadata("never-stored", null)
        , stored(), LATER);

    assertThat(updated.metadata()).containsOnly(Map.entry("keep", "1"), Map.entry("change", "30"),
        Map.entry("add", "4"));
  }

  @Test
  void laterPatchEntriesOverrideEarlierOnes() {
    SessionWrite write = SessionWrite.of("s").withMetadata("k", "first").withMetadata("k", null);

    assertThat(Upserts.session(write, stored(), LATER).metadata()).doesNotContainKey("k");
    assertThat(Upserts.session(write.withMetadata("k", "last"), null, CREATED).metadata()).containsEntry("k", "last");
  }

  @Test
  void nullValuesOnANewSessionLeaveNoKey() {
    Session created = Upserts.session(SessionWrite.of("s").withMetadata("gone", null), null, CREATED);

    assertThat(created.metadata()).isEmpty();
  }

  @Test
  void keepsTheForkOrigin() {
    Session fork = new Session("f", null, null, null, SessionStatus.ACTIVE, Json.emptyObject(), Map.of(),
        new ForkOrigin("parent", 3), CREATED, CREATED, null, 3);

    assertThat(Upserts.session(SessionWrite.of("f").withStatus(SessionStatus.COMPLETED), fork, LATER).forkOrigin())
        .contains(new ForkOrigin("parent", 3));
  }

  @Test
  void isImmutable() {
    Map<String, String> patch = new HashMap<>(Map.of("a", "1"));
    SessionWrite write = SessionWrite.of("s").withMetadata(patch);
    patch.put("b", "2");
    SessionWrite renamed = write.withName("n");

    assertThat(write.metadata()).containsOnlyKeys("a");
    assertThat(write.name()).isNull();
    assertThat(renamed.name()).isEqualTo("n");
    assertThatThrownBy(() -> write.metadata().put("c", "3")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void generatesDistinctIdsForNewSessions() {
    assertThat(SessionWrite.newSession().id()).isNotEqualTo(SessionWrite.newSession().id());
  }

  @Test
  void rejectsInvalidFieldsNamingThem() {
    assertField(() -> SessionWrite.of(null), "session.id");
    assertField(() -> SessionWrite.of(" "), "session.id");
    assertField(() -> SessionWrite.of("s").withName(""), "session.name");
    assertField(() -> SessionWrite.of("s").withTenant("t\u0000"), "session.tenant");
    assertField(() -> SessionWrite.of("s").withMetadata(" ", "v"), "session.metadata key");
    assertField(() -> SessionWrite.of("s").withMetadata(null, "v"), "session.metadata key");
    assertField(() -> SessionWrite.of("s").withMetadata("k", "x".repeat(Limits.MAX_METADATA_VALUE_LENGTH + 1)),
        "session.metadata[k]");
  }

  @Test
  void boundsMetadataEntries() {
    Map<String, String> full = new LinkedHashMap<>();
    for (int i = 0; i < Limits.MAX_METADATA_ENTRIES; i++) {
      full.put("k" + i, "v");
    }
    Session atLimit = Upserts.session(SessionWrite.of("s").withMetadata(full), null, CREATED);

    assertThat(atLimit.metadata()).hasSize(Limits.MAX_METADATA_ENTRIES);
    assertField(() -> Upserts.session(SessionWrite.of("s").withMetadata("one-more", "v"), atLimit, LATER),
        "session.metadata");
    assertThat(Upserts.session(SessionWrite.of("s").withMetadata("k0", null).withMetadata("replacement", "v")
        , atLimit, LATER).metadata()).hasSize(Limits.MAX_METADATA_ENTRIES);
    full.put("over", "v");
    assertField(() -> SessionWrite.of("s").withMetadata(full), "session.metadata");
  }

  @Test
  void expiryIsSetKeptAndClearedAtMicrosecondPrecision() {
    Instant expiry = CREATED.plusSeconds(3600).plusNanos(1_234_567);
    Session created = Upserts.session(SessionWrite.of("s").withExpiresAt(expiry), null, CREATED);

    assertThat(created.expiry()).contains(CREATED.plusSeconds(3600).plusNanos(1_234_000));
    assertThat(Upserts.session(SessionWrite.of("s").withStatus(SessionStatus.PAUSED), created, LATER).expiresAt())
        .as("kept by a write that leaves it").isEqualTo(created.expiresAt());
    assertThat(Upserts.session(SessionWrite.of("s").withExpiresAt(LATER), created, LATER).expiresAt())
        .as("replaced").isEqualTo(LATER);
    assertThat(Upserts.session(SessionWrite.of("s").withoutExpiry(), created, LATER).expiry()).as("cleared").isEmpty();
    assertThat(Upserts.session(SessionWrite.of("s"), null, CREATED).expiry()).as("default").isEmpty();
    assertThat(SessionWrite.of("s").withExpiresAt(LATER).withoutExpiry().expiresAt()).isNull();
    assertField(() -> SessionWrite.of("s").withExpiresAt(null), "session.expiresAt");
    assertField(() -> new SessionWrite("s", null, null, null, null, null, Map.of(), LATER, true), "session.expiresAt");
  }

  private static void assertField(ThrowingCallable call, String field) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo(field));
  }
}
