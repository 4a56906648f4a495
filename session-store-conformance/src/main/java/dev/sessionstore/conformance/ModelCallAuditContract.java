package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Capability;
import dev.sessionstore.Json;
import dev.sessionstore.ModelCall;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.SessionStatus;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The model-call audit: one row per turn of what was sent to the model, listed by turn, replaced when a turn is
 * recorded again, removable by age on the store clock. The kit's factory contract asks for stores with the audit
 * enabled, so a store that declares {@link Capability#MODEL_CALL_AUDIT} must record here.
 *
 * <p>If this fails, check that the factory passed to the kit enables the audit; that rows are keyed by (session,
 * turn) and ordered by the numeric turn (not by insertion order or as text, where 10 sorts before 2); that a
 * re-recorded turn replaces the row, including its recorded time; and that age-based deletion uses the store clock
 * (not the system clock or the database's {@code now()}), removes rows strictly older than the age, and is limited
 * to the session it names.
 */
public abstract class ModelCallAuditContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected ModelCallAuditContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.MODEL_CALL_AUDIT);
  }

  private ModelCallAudit audit() {
    return store.modelCalls();
  }

  private boolean record(String sessionId, long turn) {
    return audit().record(sessionId, NewModelCall.of(turn, "model-x", json("{\"turn\":" + turn + "}")));
  }

  private static List<Long> turns(List<ModelCall> rows) {
    return rows.stream().map(ModelCall::turn).collect(Collectors.toList());
  }

  @Test
  @DisplayName("A store from the kit's factory has the audit enabled")
  void theAuditIsEnabled() {
    assertThat(audit().enabled()).as("modelCalls().enabled() of a store built by newStore(clock)").isTrue();
  }

  @Test
  @DisplayName("record stores the row and list returns it with model, context, usage and the clock's time")
  void recordThenList() {
    String session = id("session");
    Json context = json("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"tools\":[]}");
    Json usage = json("{\"input_tokens\":12,\"output_tokens\":3}");

    boolean stored = audit().record(session, new NewModelCall(1, "gpt-x", context, usage));

    assertThat(stored).as("record while the audit is on").isTrue();
    assertThat(audit().list(session)).containsExactly(
        new ModelCall(session, 1, "gpt-x", context, usage, clock.instant()));
  }

  @Test
  @DisplayName("Usage left out is recorded as the empty object")
  void missingUsageIsTheEmptyObject() {
    String session = id("session");

    record(session, 0);

    assertThat(audit().list(session)).singleElement()
        .satisfies(row -> assertThat(row.usage()).isEqualTo(Json.emptyObject()));
  }

  @Test
  @DisplayName("Rows are listed by turn, numerically, whatever order they were recorded in")
  void rowsAreOrderedByTurn() {
    String session = id("session");
    for (long turn : List.of(10L, 2L, 0L, 33L, 9L, 1L)) {
      record(session, turn);
      clock.advance(Duration.ofSeconds(1));
    }

    assertThat(turns(audit().list(session))).containsExactly(0L, 1L, 2L, 9L, 10L, 33L);
  }

  @Test
  @DisplayName("Turn numbers beyond the int range are kept exactly")
  void largeTurnNumbersAreKept() {
    String session = id("session");
    record(session, 5_000_000_000L);
    record(session, 4_000_000_000L);

    assertThat(turns(audit().list(session))).containsExactly(4_000_000_000L, 5_000_000_000L);
  }

  @Test
  @DisplayName("Recording a turn again replaces its row: one row, the new content and the new time")
  void recordingATurnAgainReplacesIt() {
    String session = id("session");
    record(session, 1);
    record(session, 2);
    clock.advance(Duration.ofMinutes(1));

    audit().record(session, NewModelCall.of(1, "model-y", json("{\"retry\":true}")));

    List<ModelCall> rows = audit().list(session);
    assertThat(turns(rows)).as("turns after recording turn 1 again").containsExactly(1L, 2L);
    assertThat(rows.get(0).model()).isEqualTo("model-y");
    assertThat(rows.get(0).context()).isEqualTo(json("{\"retry\":true}"));
    assertThat(rows.get(0).recordedAt()).as("recordedAt of the replaced row").isEqualTo(clock.instant());
  }

  @Test
  @DisplayName("Recording under an unknown session creates the session, active")
  void recordCreatesTheSession() {
    String session = id("session");

    record(session, 1);

    assertThat(store.sessions().find(session)).hasValueSatisfying(
        found -> assertThat(found.status()).isEqualTo(SessionStatus.ACTIVE));
  }

  @Test
  @DisplayName("Rows are per session, and an unknown session lists nothing")
  void rowsArePerSession() {
    String first = id("session");
    String second = id("session");
    record(first, 1);
    record(second, 7);
    record(first, 2);

    assertThat(turns(audit().list(first))).containsExactly(1L, 2L);
    assertThat(turns(audit().list(second))).containsExactly(7L);
    assertThat(audit().list("no-such-session")).isEmpty();
  }

  @Test
  @DisplayName("deleteOlderThan(session, age) removes that session's rows recorded more than age ago and counts them")
  void deleteOlderThanRemovesOnlyOldRows() {
    String session = id("session");
    record(session, 1);
    clock.advance(Duration.ofMinutes(10));
    record(session, 2);
    clock.advance(Duration.ofMinutes(10));
    record(session, 3);
    clock.advance(Duration.ofMinutes(10));

    int removed = audit().deleteOlderThan(session, Duration.ofMinutes(15));

    assertThat(removed).as("rows older than 15 minutes (recorded 30 and 20 minutes ago)").isEqualTo(2);
    assertThat(turns(audit().list(session))).containsExactly(3L);
  }

  @Test
  @DisplayName("A row exactly age old is kept: only rows recorded more than age ago are removed")
  void aRowExactlyAgeOldIsKept() {
    String session = id("session");
    record(session, 1);
    clock.advance(Duration.ofMinutes(10));

    assertThat(audit().deleteOlderThan(session, Duration.ofMinutes(10))).as("rows exactly 10 minutes old").isZero();
    clock.advance(Duration.ofNanos(1000));
    assertThat(audit().deleteOlderThan(session, Duration.ofMinutes(10))).as("rows 10 minutes and 1 us old")
        .isEqualTo(1);
    assertThat(audit().list(session)).isEmpty();
  }

  @Test
  @DisplayName("deleteOlderThan for one session leaves other sessions' old rows alone")
  void deleteOlderThanIsPerSession() {
    String session = id("session");
    String other = id("session");
    record(session, 1);
    record(other, 1);
    clock.advance(Duration.ofHours(2));

    assertThat(audit().deleteOlderThan(session, Duration.ofHours(1))).isEqualTo(1);

    assertThat(audit().list(session)).isEmpty();
    assertThat(turns(audit().list(other))).as("rows of a session not named").containsExactly(1L);
  }

  @Test
  @DisplayName("Global deleteOlderThan removes old rows of every session, returns the total, and keeps recent rows")
  void globalDeleteOlderThan() {
    String first = id("session");
    String second = id("session");
    record(first, 1);
    record(second, 1);
    record(second, 2);
    clock.advance(Duration.ofDays(2));
    record(first, 2);

    int removed = audit().deleteOlderThan(Duration.ofDays(1));

    assertThat(removed).as("rows older than a day across sessions").isEqualTo(3);
    assertThat(turns(audit().list(first))).containsExactly(2L);
    assertThat(audit().list(second)).isEmpty();
    assertThat(audit().deleteOlderThan(Duration.ofDays(1))).as("a second global delete").isZero();
  }

  @Test
  @DisplayName("An age reaching back before the beginning of time deletes nothing, per session and globally")
  void anAgeBeyondTimeDeletesNothing() {
    String session = id("session");
    record(session, 1);
    clock.advance(Duration.ofDays(2));
    Duration forever = Duration.ofSeconds(Long.MAX_VALUE);

    assertThat(audit().deleteOlderThan(session, forever)).as("rows of one session older than %s", forever).isZero();
    assertThat(audit().deleteOlderThan(forever)).as("rows of any session older than %s", forever).isZero();
    assertThat(turns(audit().list(session))).containsExactly(1L);
  }

  @Test
  @DisplayName("A re-recorded turn is as old as its last recording, so age-based deletion keeps it")
  void aReRecordedTurnIsYoung() {
    String session = id("session");
    record(session, 1);
    clock.advance(Duration.ofHours(3));
    record(session, 1);

    assertThat(audit().deleteOlderThan(session, Duration.ofHours(1))).isZero();
    assertThat(turns(audit().list(session))).containsExactly(1L);
  }

  @Test
  @DisplayName("deleteOlderThan of an unknown session removes nothing")
  void deleteOlderThanOfAnUnknownSession() {
    String session = id("session");
    record(session, 1);
    clock.advance(Duration.ofDays(1));

    assertThat(audit().deleteOlderThan("no-such-session", Duration.ZERO)).isZero();
    assertThat(turns(audit().list(session))).containsExactly(1L);
  }

  @Test
  @DisplayName("Audit rows are deleted with their session")
  @Tag("guarantee-14")
  void rowsGoWithTheirSession() {
    String session = id("session");
    String other = id("session");
    record(session, 1);
    record(other, 1);

    store.sessions().delete(session);

    assertThat(audit().list(session)).isEmpty();
    assertThat(turns(audit().list(other))).containsExactly(1L);
  }
}
