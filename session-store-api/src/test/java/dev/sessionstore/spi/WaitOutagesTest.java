package dev.sessionstore.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.OutcomeUnknownException;
import dev.sessionstore.StoreClosedException;
import dev.sessionstore.StoreFailureException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WaitOutagesTest {

  private static final long POLL = TimeUnit.SECONDS.toNanos(5);
  private final List<String> warnings = new ArrayList<>();
  private final List<String> infos = new ArrayList<>();
  private final WaitOutages outages = new WaitOutages("the test backend", warnings::add, infos::add);

  private static String unreachable() {
    throw new StoreFailureException("reading failed: no node available", true, null);
  }

  @Test
  void aRetryableFailureIsNoResultAndTheWaitBacksOffUpToASecond() {
    WaitOutages.Retry retry = outages.retry();
    List<Long> pauses = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      assertThat(retry.attempt(WaitOutagesTest::unreachable)).isEmpty();
      pauses.add(TimeUnit.NANOSECONDS.toMillis(retry.pauseNanos(POLL)));
    }
    assertThat(pauses).containsExactly(20L, 40L, 80L, 160L, 320L, 640L, 1000L, 1000L);

    assertThat(retry.attempt(() -> "answer")).hasValue("answer");
    assertThat(retry.pauseNanos(POLL)).as("the poll interval once the backend answers").isEqualTo(POLL);
    assertThat(retry.attempt(WaitOutagesTest::unreachable)).isEmpty();
    assertThat(TimeUnit.NANOSECONDS.toMillis(retry.pauseNanos(POLL))).as("the backoff starts over").isEqualTo(20);
  }

  @Test
  void anOutcomeUnknownOfAnIdempotentReadIsRetriedToo() {
    assertThat(outages.retry().attempt(() -> {
      throw new OutcomeUnknownException("expiring a due call: outcome unknown", null);
    })).isEmpty();
  }

  @Test
  void failuresRetryingCannotFixAndOtherErrorsEndTheWait() {
    WaitOutages.Retry retry = outages.retry();
    StoreFailureException broken = new StoreFailureException("reading failed: no such table", false, null);
    assertThatThrownBy(() -> retry.attempt(() -> {
      throw broken;
    })).isSameAs(broken);
    assertThatThrownBy(() -> retry.attempt(() -> {
      throw new StoreClosedException();
    })).isInstanceOf(StoreClosedException.class);
    assertThat(warnings).isEmpty();
  }

  @Test
  void anOutageIsLoggedOnceForAllWaitsAndItsEndOnce() {
    WaitOutages.Retry first = outages.retry();
    WaitOutages.Retry second = outages.retry();
    for (int i = 0; i < 5; i++) {
      first.attempt(WaitOutagesTest::unreachable);
      second.attempt(WaitOutagesTest::unreachable);
    }
    assertThat(warnings).singleElement().asString().contains("the test backend").contains("no node available")
        .contains("until their timeouts");
    assertThat(infos).isEmpty();

    first.attempt(() -> "answer");
    second.attempt(() -> "answer");
    assertThat(infos).singleElement().asString().contains("the test backend").contains("again");

    second.attempt(WaitOutagesTest::unreachable);
    assertThat(warnings).as("a second outage is logged again").hasSize(2);
  }
}
