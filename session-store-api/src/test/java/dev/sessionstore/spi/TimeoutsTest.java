package dev.sessionstore.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.InvalidArgumentException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimeoutsTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

  @Test
  void nanosAreExactBelowTheCapAndCappedBeyondIt() {
    assertThat(Timeouts.nanos(Duration.ofMillis(5))).isEqualTo(5_000_000L);
    assertThat(Timeouts.nanos(Duration.ofNanos(-1))).isZero();
    assertThat(Timeouts.nanos(Duration.ofDays(365L * 1000))).isEqualTo(Timeouts.FOREVER_NANOS);
    assertThat(Timeouts.nanos(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Timeouts.FOREVER_NANOS);
  }

  @Test
  void aDeadlinePastTheEndOfTimeIsRejectedAsTimeout() {
    assertThat(Timeouts.deadlineAfter(NOW, Duration.ofSeconds(30))).isEqualTo(NOW.plusSeconds(30));
    assertThatThrownBy(() -> Timeouts.deadlineAfter(NOW, Duration.ofSeconds(Long.MAX_VALUE)))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("timeout"));
  }

  @Test
  void anAgeBeyondTheBeginningOfTimeCutsOffNothing() {
    assertThat(Timeouts.cutoff(NOW, Duration.ofHours(1))).isEqualTo(NOW.minusSeconds(3600));
    assertThat(Timeouts.cutoff(NOW, Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Instant.MIN);
  }
}
