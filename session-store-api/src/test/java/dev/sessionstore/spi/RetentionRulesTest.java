package dev.sessionstore.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionWrite;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetentionRulesTest {

  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  @Test
  void aLogWithinTheLimitIsNotCut() {
    assertThat(RetentionRules.cutThrough(1, 5, List.of(2L, 4L), 5)).isEqualTo(0);
  }

  @Test
  void theCutEndsAtTheFirstSummaryThatLeavesAtMostTheLimit() {
    assertThat(RetentionRules.cutThrough(1, 10, List.of(6L, 3L), 5)).isEqualTo(6);
    assertThat(RetentionRules.cutThrough(1, 10, List.of(3L, 6L), 7)).isEqualTo(3);
  }

  @Test
  void theCutNeverPassesTheLatestSummary() {
    assertThat(RetentionRules.cutThrough(1, 10, List.of(4L), 2)).isEqualTo(4);
    assertThat(RetentionRules.cutThrough(1, 10, List.of(), 2)).isEqualTo(0);
  }

  @Test
  void summariesBelowAnEarlierCutCutNothing() {
    assertThat(RetentionRules.cutThrough(5, 12, List.of(4L, 8L), 2)).isEqualTo(8);
    assertThat(RetentionRules.cutThrough(5, 12, List.of(4L), 2)).isLessThan(5);
  }

  @Test
  void theLimitCanBeReachedExactlyAtTheLastSeq() {
    assertThat(RetentionRules.cutThrough(1, 5, List.of(5L), 1)).isEqualTo(5);
  }

  @Test
  void idlenessCountsTheLastEventAndTheScope() {
    RetentionPolicy policy = RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(1))
        .onlyStatuses(SessionStatus.COMPLETED).build();
    Session completed = Upserts.session(SessionWrite.of("s").withStatus(SessionStatus.COMPLETED), null, T0);
    Session active = Upserts.session(SessionWrite.of("a"), null, T0);
    Instant cutoff = RetentionRules.cutoff(T0.plus(Duration.ofDays(2)), Duration.ofDays(1));

    assertThat(RetentionRules.isIdle(policy, completed, null, cutoff)).isTrue();
    assertThat(RetentionRules.isIdle(policy, completed, T0, cutoff)).isTrue();
    assertThat(RetentionRules.isIdle(policy, completed, cutoff, cutoff)).isFalse();
    assertThat(RetentionRules.isIdle(policy, completed, null, T0)).isFalse();
    assertThat(RetentionRules.isIdle(policy, active, null, cutoff)).isFalse();
  }

  @Test
  void aScheduleIntervalLiesBetweenTenMillisecondsAndAnHour() {
    assertThat(RetentionRules.requireInterval(Duration.ofMillis(10))).isEqualTo(Duration.ofMillis(10));
    assertThat(RetentionRules.requireInterval(Duration.ofHours(1))).isEqualTo(Duration.ofHours(1));
    for (Duration bad : List.of(Duration.ofMillis(9), Duration.ZERO, Duration.ofSeconds(-1),
        Duration.ofHours(1).plusNanos(1), Duration.ofDays(1))) {
      assertThatThrownBy(() -> RetentionRules.requireInterval(bad)).as("interval %s", bad)
          .isInstanceOfSatisfying(InvalidArgumentException.class,
              e -> assertThat(e.field()).isEqualTo("retentionInterval"))
          .hasMessageContaining("use between 10 ms and 1 hour");
    }
    assertThatThrownBy(() -> RetentionRules.requireInterval(null))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("retentionInterval"));
  }
}
