package dev.sessionstore.memory.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.memory.HandClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadlineSchedulerTest {

  private static final Instant START = HandClock.START;

  private final HandClock clock = new HandClock();
  private final DeadlineScheduler scheduler = new DeadlineScheduler(clock);
  private final List<String> fired = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    scheduler.close();
  }

  @Test
  void waitsForTheStoreClockNotJustRealTime() throws InterruptedException {
    CountDownLatch ran = new CountDownLatch(1);
    scheduler.schedule("k", START.plusMillis(50), ran::countDown);

    assertThat(ran.await(400, TimeUnit.MILLISECONDS)).as("fired while the store clock stood still").isFalse();
    clock.advance(Duration.ofMillis(50));
    assertThat(ran.await(10, TimeUnit.SECONDS)).as("fired once the store clock got there").isTrue();
  }

  @Test
  void runsAnInstantAlreadyReachedRightAway() throws InterruptedException {
    CountDownLatch ran = new CountDownLatch(1);

    scheduler.schedule("k", START.minusSeconds(1), ran::countDown);

    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void replacingATimerDropsTheOldAction() throws InterruptedException {
    CountDownLatch ran = new CountDownLatch(1);
    scheduler.schedule("k", START.plusMillis(20), () -> fired.add("old"));
    scheduler.schedule("k", START.plusMillis(20), () -> {
      fired.add("new");
      ran.countDown();
    });
    clock.advance(Duration.ofMillis(20));

    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
    TimeUnit.MILLISECONDS.sleep(100);
    assertThat(fired).containsExactly("new");
  }

  @Test
  void cancelledTimersNeverRun() throws InterruptedException {
    CountDownLatch other = new CountDownLatch(1);
    scheduler.schedule("cancelled", START.plusMillis(50), () -> fired.add("cancelled"));
    scheduler.cancel("cancelled");
    scheduler.schedule("other", START.plusMillis(50), other::countDown);
    clock.advance(Duration.ofMillis(50));

    assertThat(other.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(fired).isEmpty();
  }

  @Test
  void keepsRunningAfterAFailingAction() throws InterruptedException {
    CountDownLatch ran = new CountDownLatch(1);
    scheduler.schedule("failing", START, () -> {
      throw new IllegalStateException("expected by the test");
    });
    scheduler.schedule("next", START.plusMillis(1), ran::countDown);
    clock.advance(Duration.ofMillis(1));

    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void closedSchedulerRunsNothing() throws InterruptedException {
    scheduler.schedule("k", START.plusMillis(20), () -> fired.add("k"));

    scheduler.close();
    clock.advance(Duration.ofSeconds(1));
    scheduler.schedule("after", START, () -> fired.add("after"));

    TimeUnit.MILLISECONDS.sleep(200);
    assertThat(fired).isEmpty();
  }
}
