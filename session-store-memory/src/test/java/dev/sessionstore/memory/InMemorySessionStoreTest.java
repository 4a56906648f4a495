package dev.sessionstore.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Capability;
import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.UnsupportedCapabilityException;
import dev.sessionstore.spi.StoredValues;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class InMemorySessionStoreTest {

  private static final Clock FIXED = Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC);

  @Nested
  @DisplayName("builder")
  class BuilderRules {

    @Test
    void refusesANullClock() {
      assertThatThrownBy(() -> InMemorySessionStore.builder().clock(null))
          .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("clock"))
          .hasMessage("clock: must not be null");
    }

    @Test
    void refusesASecondClock() {
      InMemorySessionStore.Builder builder = InMemorySessionStore.builder().clock(FIXED);

      assertThatThrownBy(() -> builder.clock(Clock.systemUTC()))
          .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("clock"))
          .hasMessageContaining("clock: was already set");
    }

    @Test
    void refusesASecondAuditSetting() {
      InMemorySessionStore.Builder builder = InMemorySessionStore.builder().modelCallAudit(false);

      assertThatThrownBy(() -> builder.modelCallAudit(true))
          .isInstanceOfSatisfying(InvalidArgumentException.class,
              e -> assertThat(e.field()).isEqualTo("modelCallAudit"))
          .hasMessageContaining("modelCallAudit: was already set");
    }

    @Test
    @DisplayName("a retention schedule's interval lies between 10 ms and 1 hour, as on every adapter")
    void boundsTheRetentionInterval() {
      RetentionPolicy policy = RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(30)).build();
      InMemorySessionStore.builder().retention(policy, Duration.ofMillis(10)).build().close();
      InMemorySessionStore.builder().retention(policy, Duration.ofHours(1)).build().close();
      for (Duration bad : List.of(Duration.ofMillis(9), Duration.ofHours(2))) {
        assertThatThrownBy(() -> InMemorySessionStore.builder().retention(policy, bad)).as("interval %s", bad)
            .isInstanceOfSatisfying(InvalidArgumentException.class,
                e -> assertThat(e.field()).isEqualTo("retentionInterval"))
            .hasMessageContaining("use between 10 ms and 1 hour");
      }
    }

    @Test
    void usesTheGivenClock() {
      try (SessionStore store = InMemorySessionStore.builder().clock(FIXED).build()) {
        assertThat(store.sessions().save(SessionWrite.of("s")).createdAt()).isEqualTo(FIXED.instant());
        assertThat(store.events().append("s", NewEvent.of("m")).timestamp()).isEqualTo(FIXED.instant());
      }
    }

    @Test
    void defaultsToTheSystemClock() {
      Instant before = Instant.now().minusSeconds(1);
      try (SessionStore store = InMemorySessionStore.builder().build()) {
        Instant created = store.sessions().save(SessionWrite.of("s")).createdAt();

        assertThat(created).isBetween(before, Instant.now().plusSeconds(1));
      }
    }

    @Test
    void buildsIndependentStores() {
      InMemorySessionStore.Builder builder = InMemorySessionStore.builder().clock(FIXED);
      try (SessionStore first = builder.build(); SessionStore second = builder.build()) {
        first.events().append("s", NewEvent.of("m"));

        assertThat(second.sessions().find("s")).isEmpty();
        assertThat(second.events().lastSeq("s")).isZero();
      }
    }

    @Test
    void declaresEveryCapabilityButCrossProcessOnes() {
      try (SessionStore store = InMemorySessionStore.builder().build()) {
        assertThat(store.capabilities()).isEqualTo(
            EnumSet.complementOf(EnumSet.of(Capability.CROSS_PROCESS_WAKEUP, Capability.DURABLE_DEADLINES)));
        assertThatThrownBy(() -> store.capabilities().add(Capability.CROSS_PROCESS_WAKEUP))
            .isInstanceOf(UnsupportedOperationException.class);
      }
    }
  }

  @Nested
  @DisplayName("declared capabilities")
  class DeclaredCapabilities {

    @Test
    void declaresOnlyWhatItIsGivenAndRefusesTheRest() {
      try (SessionStore store = InMemorySessionStore.builder().capabilities(Set.of(Capability.SUMMARIES)).build()) {
        assertThat(store.capabilities()).containsExactly(Capability.SUMMARIES);
        assertThat(store.summaries()).isNotNull();
        assertThatThrownBy(store::toolCalls).isInstanceOfSatisfying(UnsupportedCapabilityException.class,
            e -> assertThat(e.capability()).isEqualTo(Capability.TOOL_CALLS));
        assertThatThrownBy(() -> store.sessions().fork("s", 1)).isInstanceOf(UnsupportedCapabilityException.class);
        assertThat(store.unwrap(StoredValues.class)).isEmpty();
      }
    }

    @Test
    void declaresNoneWhenGivenNone() {
      try (SessionStore store = InMemorySessionStore.builder().capabilities(Set.of()).build()) {
        assertThat(store.capabilities()).isEmpty();
        assertThatThrownBy(store::retention).isInstanceOf(UnsupportedCapabilityException.class);
        assertThat(store.events().append("s", NewEvent.of("m")).seq()).isEqualTo(1);
      }
    }

    @Test
    void refusesWhatTheInMemoryStoreCannotHave() {
      assertThatThrownBy(() -> InMemorySessionStore.builder().capabilities(Set.of(Capability.DURABLE_DEADLINES)))
          .isInstanceOfSatisfying(InvalidArgumentException.class,
              e -> assertThat(e.field()).isEqualTo("capabilities"))
          .hasMessageContaining("DURABLE_DEADLINES, which the in-memory store does not have");
      assertThatThrownBy(() -> InMemorySessionStore.builder().capabilities(null))
          .hasMessage("capabilities: must not be null");
      Set<Capability> withNull = new HashSet<>();
      withNull.add(null);
      assertThatThrownBy(() -> InMemorySessionStore.builder().capabilities(withNull))
          .hasMessage("capabilities: must not hold null");
    }

    @Test
    void refusesDeadlinesWithoutToolCalls() {
      assertThatThrownBy(() -> InMemorySessionStore.builder().capabilities(Set.of(Capability.DEADLINES)))
          .hasMessage("capabilities: holds DEADLINES without TOOL_CALLS, which it needs");
    }

    @Test
    void refusesASecondDeclaration() {
      InMemorySessionStore.Builder builder = InMemorySessionStore.builder().capabilities(Set.of());

      assertThatThrownBy(() -> builder.capabilities(Set.of(Capability.FORKS)))
          .hasMessageContaining("capabilities: was already set to []");
    }

    @Test
    void refusesToBuildWhatItsOtherSettingsNeed() {
      assertThatThrownBy(() -> InMemorySessionStore.builder().capabilities(Set.of())
          .retention(RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(1)).build(), Duration.ofHours(1))
          .build())
          .hasMessage("capabilities: leave out RETENTION, but a retention schedule is set");
      assertThatThrownBy(() -> InMemorySessionStore.builder().capabilities(Set.of()).modelCallAudit(true).build())
          .hasMessage("capabilities: leave out MODEL_CALL_AUDIT, but the model-call audit is switched on");
    }
  }

  @Nested
  @DisplayName("model-call audit")
  class Audit {

    private final NewModelCall call = NewModelCall.of(1, "model", Json.of("{\"messages\":[]}"));

    @Test
    void isOffByDefault() {
      try (SessionStore store = InMemorySessionStore.builder().clock(FIXED).build()) {
        assertThat(store.modelCalls().enabled()).isFalse();
        assertThat(store.modelCalls().record("s", call)).isFalse();
        assertThat(store.modelCalls().list("s")).isEmpty();
        assertThat(store.sessions().find("s")).as("a refused record creates no session").isEmpty();
      }
    }

    @Test
    void keepsNothingRecordedWhileOffEvenForExistingSessions() {
      try (SessionStore store = InMemorySessionStore.builder().clock(FIXED).modelCallAudit(false).build()) {
        store.sessions().save(SessionWrite.of("s"));

        assertThat(store.modelCalls().record("s", call)).isFalse();
        assertThat(store.modelCalls().list("s")).isEmpty();
        assertThat(store.modelCalls().deleteOlderThan(Duration.ZERO)).isZero();
      }
    }

    @Test
    void recordsWhenEnabled() {
      try (SessionStore store = InMemorySessionStore.builder().clock(FIXED).modelCallAudit(true).build()) {
        assertThat(store.modelCalls().enabled()).isTrue();
        assertThat(store.modelCalls().record("s", call)).isTrue();
        assertThat(store.modelCalls().list("s")).singleElement()
            .satisfies(row -> assertThat(row.recordedAt()).isEqualTo(FIXED.instant()));
        assertThat(store.sessions().find("s")).isPresent();
      }
    }

    @Test
    void stillChecksArgumentsWhileOff() {
      try (SessionStore store = InMemorySessionStore.builder().build()) {
        assertThatThrownBy(() -> store.modelCalls().record(" ", call))
            .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.modelCalls().record("s", null))
            .isInstanceOf(InvalidArgumentException.class);
      }
    }
  }

  @Nested
  @DisplayName("close")
  class Close {

    private final SessionStore store = InMemorySessionStore.builder().clock(FIXED).modelCallAudit(true).build();

    @AfterEach
    void closeStore() {
      store.close();
    }

    @Test
    void stopsTheDeadlineThread() throws InterruptedException {
      Set<Thread> before = deadlineThreads();
      store.toolCalls().save(ToolCallWrite.of("c", "s", "tool"));
      store.toolCalls().expireAfter("s", "c", Duration.ofHours(1));
      Set<Thread> started = new HashSet<>(deadlineThreads());
      started.removeAll(before);
      assertThat(started).as("the store's deadline thread").hasSize(1);
      Thread thread = started.iterator().next();
      assertThat(thread.isDaemon()).isTrue();

      store.close();

      thread.join(TimeUnit.SECONDS.toMillis(10));
      assertThat(thread.isAlive()).isFalse();
    }

    private Set<Thread> deadlineThreads() {
      return Thread.getAllStackTraces().keySet().stream()
          .filter(thread -> thread.getName().startsWith("session-store-memory-deadlines-") && thread.isAlive())
          .collect(Collectors.toSet());
    }
  }

  @Test
  void returnsImmutableValues() {
    try (SessionStore store = InMemorySessionStore.builder().clock(FIXED).build()) {
      store.sessions().save(SessionWrite.of("s").withMetadata(Map.of("k", "v")));
      store.events().appendAll("s", List.of(NewEvent.of("a"), NewEvent.of("b")));
      store.runs().save(RunWrite.of("r", "s"));
      store.toolCalls().save(ToolCallWrite.of("c", "s", "tool"));

      assertThatThrownBy(() -> store.events().read("s", EventQuery.all()).items().clear())
          .isInstanceOf(UnsupportedOperationException.class);
      assertThatThrownBy(() -> store.sessions().list(SessionQuery.all()).items().clear())
          .isInstanceOf(UnsupportedOperationException.class);
      assertThatThrownBy(() -> store.sessions().find("s").orElseThrow().metadata().clear())
          .isInstanceOf(UnsupportedOperationException.class);
      assertThatThrownBy(() -> store.runs().list("s").clear()).isInstanceOf(UnsupportedOperationException.class);
      assertThatThrownBy(() -> store.toolCalls().pending("s").clear())
          .isInstanceOf(UnsupportedOperationException.class);
      assertThatThrownBy(() -> store.summaries().revive("s").events().clear())
          .isInstanceOf(UnsupportedOperationException.class);
      assertThatThrownBy(() -> store.sessions().listResumable().clear())
          .isInstanceOf(UnsupportedOperationException.class);
    }
  }
}
