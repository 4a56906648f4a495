package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RetentionPolicyTest {

  @Test
  void theBuilderSetsEachRule() {
    RetentionPolicy policy = RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(30))
        .onlyStatuses(SessionStatus.COMPLETED, SessionStatus.FAILED).onlyTenant("acme").keepEventsPerSession(500)
        .deleteModelCallsOlderThan(Duration.ofDays(7)).build();

    assertThat(policy).isEqualTo(new RetentionPolicy(Optional.of(Duration.ofDays(30)),
        Set.of(SessionStatus.COMPLETED, SessionStatus.FAILED), Optional.of("acme"), OptionalInt.of(500),
        Optional.of(Duration.ofDays(7))));
    assertThat(policy.scopes(SessionStatus.FAILED, "acme")).isTrue();
    assertThat(policy.scopes(SessionStatus.ACTIVE, "acme")).isFalse();
    assertThat(policy.scopes(SessionStatus.FAILED, null)).isFalse();
  }

  @Test
  void aPolicyNeedsARule() {
    assertThatThrownBy(() -> RetentionPolicy.builder().build()).isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("policy");
  }

  @Test
  void aScopeNeedsTheIdleRule() {
    assertThatThrownBy(() -> RetentionPolicy.builder().keepEventsPerSession(3).onlyTenant("t").build())
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("idleTenant");
    assertThatThrownBy(() -> RetentionPolicy.builder().keepEventsPerSession(3)
        .onlyStatuses(SessionStatus.ACTIVE).build()).hasMessageContaining("idleStatuses");
  }

  @Test
  void badValuesAndSecondCallsAreRejected() {
    assertThatThrownBy(() -> RetentionPolicy.builder().keepEventsPerSession(0))
        .hasMessageContaining("maxEventsPerSession");
    assertThatThrownBy(() -> RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(-1)))
        .hasMessageContaining("idleSessionAge");
    assertThatThrownBy(() -> RetentionPolicy.builder().deleteModelCallsOlderThan(null))
        .hasMessageContaining("modelCallAge");
    assertThatThrownBy(() -> RetentionPolicy.builder().onlyStatuses()).hasMessageContaining("idleStatuses");
    assertThatThrownBy(() -> RetentionPolicy.builder().keepEventsPerSession(2).keepEventsPerSession(3))
        .hasMessageContaining("each setter may be called once");
  }

  @Test
  void reportsAddUp() {
    RetentionReport sum = new RetentionReport(true, 1, 2, 3).plus(new RetentionReport(true, 4, 5, 6));
    assertThat(sum).isEqualTo(new RetentionReport(true, 5, 7, 9));
    assertThat(sum.isEmpty()).isFalse();
    assertThat(RetentionReport.none(false).isEmpty()).isTrue();
  }
}
