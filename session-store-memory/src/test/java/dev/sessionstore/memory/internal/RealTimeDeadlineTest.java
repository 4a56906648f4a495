package dev.sessionstore.memory.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Resolution;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.spi.Expiry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Deadlines fire in real time on the system clock with no caller involved. The tests observe the stored call
 * directly in the session state, which (unlike every store read) never expires a due call itself.
 */
class RealTimeDeadlineTest {

  private static final Duration SHORT = Duration.ofMillis(300);

  private final MemoryStore store = new MemoryStore(Clock.systemUTC(), false);

  @AfterEach
  void close() {
    store.close();
  }

  private ToolCall stored(String toolCallId) {
    return store.registry.withExisting("s", state -> state.toolCalls.get(toolCallId), () -> null);
  }

  /** Polls the stored call until {@code condition} holds or {@code timeout} passes; returns the last state seen. */
  private ToolCall storedOnceOrAfter(String toolCallId, Predicate<ToolCall> condition, Duration timeout)
      throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    ToolCall call = stored(toolCallId);
    while (!condition.test(call) && System.nanoTime() < end) {
      TimeUnit.MILLISECONDS.sleep(10);
      call = stored(toolCallId);
    }
    return call;
  }

  @Test
  void expiresAPendingCallWhenItsDeadlinePassesWithoutAnyRead() throws InterruptedException {
    store.toolCalls().save(ToolCallWrite.of("c", "s", "tool"));
    Instant before = Instant.now();
    assertThat(store.toolCalls().expireAfter("s", "c", SHORT)).isTrue();
    Instant deadline = stored("c").deadline();
    assertThat(stored("c").status()).isEqualTo(ToolCallStatus.PENDING);

    ToolCall call = storedOnceOrAfter("c", c -> c.status() == ToolCallStatus.EXPIRED, Duration.ofSeconds(10));

    assertThat(call.status()).isEqualTo(ToolCallStatus.EXPIRED);
    assertThat(call.result()).isEqualTo(Expiry.result(deadline));
    assertThat(call.updatedAt()).isAfterOrEqualTo(deadline);
    assertThat(Duration.between(before, Instant.now())).isGreaterThanOrEqualTo(SHORT);
  }

  @Test
  void doesNotFireACancelledDeadline() throws InterruptedException {
    store.toolCalls().save(ToolCallWrite.of("c", "s", "tool"));
    store.toolCalls().expireAfter("s", "c", SHORT);

    assertThat(store.toolCalls().cancelDeadline("s", "c")).isTrue();

    ToolCall call = storedOnceOrAfter("c", c -> c.status() != ToolCallStatus.PENDING, SHORT.multipliedBy(3));
    assertThat(call.status()).isEqualTo(ToolCallStatus.PENDING);
    assertThat(call.deadline()).isNull();
  }

  @Test
  void firesOnlyTheReplacingDeadline() throws InterruptedException {
    store.toolCalls().save(ToolCallWrite.of("late", "s", "tool"));
    store.toolCalls().save(ToolCallWrite.of("early", "s", "tool"));
    store.toolCalls().expireAfter("s", "late", SHORT);
    store.toolCalls().expireAfter("s", "late", Duration.ofHours(1));
    store.toolCalls().expireAfter("s", "early", Duration.ofHours(1));
    store.toolCalls().expireAfter("s", "early", SHORT);

    ToolCall early = storedOnceOrAfter("early", c -> c.status() == ToolCallStatus.EXPIRED, Duration.ofSeconds(10));
    ToolCall late = storedOnceOrAfter("late", c -> c.status() != ToolCallStatus.PENDING, SHORT);

    assertThat(early.status()).isEqualTo(ToolCallStatus.EXPIRED);
    assertThat(late.status()).isEqualTo(ToolCallStatus.PENDING);
    assertThat(late.deadline()).isAfter(Instant.now().plus(Duration.ofMinutes(50)));
  }

  @Test
  void leavesResolvedCallsAlone() throws InterruptedException {
    store.toolCalls().save(ToolCallWrite.of("c", "s", "tool"));
    store.toolCalls().expireAfter("s", "c", SHORT);
    ToolCall resolved = ((Resolution.Resolved) store.toolCalls().resolve("s", "c", ToolCallStatus.COMPLETED, null)).call();

    ToolCall call = storedOnceOrAfter("c", c -> !c.equals(resolved), SHORT.multipliedBy(3));

    assertThat(call).isEqualTo(resolved);
  }
}
