package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ToolCallWriteTest {

  private static final Instant CREATED = Instant.parse("2030-01-01T00:00:00Z");
  private static final Instant LATER = CREATED.plusSeconds(5);

  @Test
  void newCallIsPendingWithoutResultOrDeadline() {
    ToolCall call = ToolCallWrite.of("c", "s", "search").applyTo(null, CREATED);

    assertThat(call.status()).isEqualTo(ToolCallStatus.PENDING);
    assertThat(call.arguments()).isEqualTo(Json.emptyObject());
    assertThat(call.result()).isNull();
    assertThat(call.deadline()).isNull();
    assertThat(call.createdAt()).isEqualTo(CREATED);
  }

  @Test
  void updatesDescriptiveFieldsButNeverStatusResultOrDeadline() {
    Instant deadline = CREATED.plusSeconds(60);
    ToolCall resolved = ToolCallWrite.of("c", "s", "search").applyTo(null, CREATED)
        .withDeadline(deadline, CREATED)
        .resolvedAs(ToolCallStatus.COMPLETED, Json.of("{\"ok\":true}"), CREATED);
    ToolCall pendingWithDeadline = ToolCallWrite.of("c", "s", "search").applyTo(null, CREATED)
        .withDeadline(deadline, CREATED);

    ToolCallWrite write = ToolCallWrite.of("c", "s", "fetch").withRunId("r").withArguments(Json.of("{\"q\":1}"));
    ToolCall updatedResolved = write.applyTo(resolved, LATER);
    ToolCall updatedPending = write.applyTo(pendingWithDeadline, LATER);

    assertThat(updatedResolved.toolName()).isEqualTo("fetch");
    assertThat(updatedResolved.runId()).isEqualTo("r");
    assertThat(updatedResolved.arguments()).isEqualTo(Json.of("{\"q\":1}"));
    assertThat(updatedResolved.status()).isEqualTo(ToolCallStatus.COMPLETED);
    assertThat(updatedResolved.result()).isEqualTo(Json.of("{\"ok\":true}"));
    assertThat(updatedResolved.createdAt()).isEqualTo(CREATED);
    assertThat(updatedResolved.updatedAt()).isEqualTo(LATER);
    assertThat(updatedPending.status()).isEqualTo(ToolCallStatus.PENDING);
    assertThat(updatedPending.deadline()).isEqualTo(deadline);
  }

  @Test
  void resolvingClearsTheDeadline() {
    ToolCall call = ToolCallWrite.of("c", "s", "search").applyTo(null, CREATED)
        .withDeadline(CREATED.plusSeconds(1), CREATED);

    assertThat(call.resolvedAs(ToolCallStatus.CANCELLED, Json.emptyObject(), LATER).deadline()).isNull();
  }

  @Test
  void refusesACallOfAnotherSession() {
    ToolCall stored = ToolCallWrite.of("c", "other", "search").applyTo(null, CREATED);

    assertThatThrownBy(() -> ToolCallWrite.of("c", "s", "search").applyTo(stored, LATER))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("other");
  }
}
