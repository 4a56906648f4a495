package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Json;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.spi.Expiry;
import dev.sessionstore.spi.StoreEventSource;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Deadlines live in the database: they fire after the instance that set them is gone, swept by any other instance,
 * and several sweeping instances expire each call once. Real clocks; waits are bounded polls of the table.
 */
class DurableDeadlineTest {

  private static final Duration FAST_SWEEPS = Duration.ofMillis(50);
  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private final TestSchema schema = new TestSchema();

  @AfterEach
  void dropSchema() {
    schema.close();
  }

  @Test
  @DisplayName("A deadline set through an instance that is then closed is expired by another instance's sweeper")
  void deadlineOutlivesTheInstanceThatSetIt() throws InterruptedException {
    SessionStore setter = schema.store(builder -> builder.deadlineSweepInterval(Duration.ofHours(1)));
    SessionStore survivor = schema.store(builder -> builder.deadlineSweepInterval(FAST_SWEEPS));
    setter.toolCalls().save(ToolCallWrite.of("call-1", "session-1", "approve"));
    assertThat(setter.toolCalls().expireAfter("session-1", "call-1", Duration.ofMillis(300))).isTrue();
    Instant deadline = setter.toolCalls().find("session-1", "call-1").orElseThrow().deadline();
    setter.close();

    awaitStatusInTable("call-1", "expired");

    ToolCall expired = survivor.toolCalls().find("session-1", "call-1").orElseThrow();
    assertThat(expired.status()).isEqualTo(ToolCallStatus.EXPIRED);
    assertThat(expired.result()).isEqualTo(Expiry.result(deadline));
    assertThat(expired.deadline()).isNull();
  }

  @Test
  @DisplayName("Three sweeping instances together expire 300 due calls, each with a result naming its own deadline,"
      + " and report 300 deadlines fired between them")
  void sweepersShareTheWorkWithoutDoubleExpiry() throws InterruptedException {
    SessionStore writer = schema.store(builder -> builder.deadlineSweepInterval(Duration.ofHours(1)));
    Instant past = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.MICROS);
    List<String> ids = IntStream.range(0, 300).mapToObj(i -> "call-" + i).toList();
    for (int i = 0; i < ids.size(); i++) {
      writer.toolCalls().save(ToolCallWrite.of(ids.get(i), "session-" + (i % 7), "tool"));
      writer.toolCalls().expireAt("session-" + (i % 7), ids.get(i), past.plusMillis(i));
    }
    StoreEventsRecorder recorder = new StoreEventsRecorder();
    for (int i = 0; i < 3; i++) {
      StoreEventSource.of(schema.store(builder -> builder.deadlineSweepInterval(FAST_SWEEPS))).subscribe(recorder);
    }

    awaitCountInTable("SELECT count(*) FROM \"" + schema.name() + "\".session_store_tool_calls"
        + " WHERE status = 'expired'", ids.size());

    for (int i = 0; i < ids.size(); i++) {
      ToolCall call = writer.toolCalls().find("session-" + (i % 7), ids.get(i)).orElseThrow();
      assertThat(call.status()).isEqualTo(ToolCallStatus.EXPIRED);
      assertThat(call.result()).as("result of %s", call.id())
          .isEqualTo(Expiry.result(past.plusMillis(i)));
    }
    assertThat(writer.toolCalls().resolve("session-0", ids.get(0), ToolCallStatus.COMPLETED, Json.emptyObject()).won())
        .as("resolving an expired call").isFalse();
    assertThat(recorder.deadlines.get()).as("deadlines fired by the sweepers, each call once").isEqualTo(ids.size());
  }

  private void awaitStatusInTable(String callId, String status) throws InterruptedException {
    awaitCountInTable("SELECT count(*) FROM \"" + schema.name() + "\".session_store_tool_calls"
        + " WHERE id = '" + callId + "' AND status = '" + status + "'", 1);
  }

  private void awaitCountInTable(String countQuery, long expected) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    long count = 0;
    while (System.nanoTime() < deadline) {
      count = ((Number) schema.queryValue(countQuery)).longValue();
      if (count == expected) {
        return;
      }
      Thread.sleep(50);
    }
    assertThat(count).as("rows of " + countQuery + " after " + PATIENCE).isEqualTo(expected);
  }
}
