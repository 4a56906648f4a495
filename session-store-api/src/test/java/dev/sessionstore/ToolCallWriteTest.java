package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.spi.ToolCallTransitions;
import dev.sessionstore.spi.Upserts;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ToolCallWriteTest {

  private static final Instant CREATED = Instant.parse("2030-01-01T00:00:00Z");
  private static final Instant LATER = CREATED.plusSeconds(5);

  @Test
  void newCallIsPendingWithoutResultAndWithTheWritesDeadline() {
    ToolCall call = Upserts.toolCall(ToolCallWrite.of("c", "s", "search"), null, CREATED);
    ToolCall timed = Upserts.toolCall(ToolCallWrite.of("c", "s", "search").withRequestEventId("use-1")
        .withDeadline(LATER), null, CREATED);

    assertThat(call.status()).isEqualTo(ToolCallStatus.PENDING);
    assertThat(call.arguments()).isEqualTo(Json.emptyObject());
    assertThat(call.result()).isNull();
    assertThat(call.deadline()).isNull();
    assertThat(call.createdAt()).isEqualTo(CREATED);
    assertThat(timed.deadline()).isEqualTo(LATER);
    assertThat(timed.requestEventId()).isEqualTo("use-1");
  }

  @Test
  void updatesDescriptiveFieldsButNeverStatusResultOrDeadline() {
    Instant deadline = CREATED.plusSeconds(60);
    ToolCall pendingWithDeadline = Upserts.toolCall(ToolCallWrite.of("c", "s", "search").withDeadline(deadline),
        null, CREATED);
    ToolCall resolved = ToolCallTransitions.resolved(pendingWithDeadline, ToolCallStatus.COMPLETED,
        Json.of("{\"ok\":true}"), CREATED);

    ToolCallWrite write = ToolCallWrite.of("c", "s", "fetch").withRunId("r").withArguments(Json.of("{\"q\":1}"))
        .withDeadline(LATER.plusSeconds(600));
    ToolCall updatedResolved = Upserts.toolCall(write, resolved, LATER);
    ToolCall updatedPending = Upserts.toolCall(write, pendingWithDeadline, LATER);

    assertThat(updatedResolved.toolName()).isEqualTo("fetch");
    assertThat(updatedResolved.runId()).isEqualTo("r");
    assertThat(updatedResolved.arguments()).isEqualTo(Json.of("{\"q\":1}"));
    assertThat(updatedResolved.status()).isEqualTo(ToolCallStatus.COMPLETED);
    assertThat(updatedResolved.result()).isEqualTo(Json.of("{\"ok\":true}"));
    assertThat(updatedResolved.createdAt()).isEqualTo(CREATED);
    assertThat(updatedResolved.updatedAt()).isEqualTo(LATER);
    assertThat(updatedPending.status()).isEqualTo(ToolCallStatus.PENDING);
    assertThat(updatedPending.deadline()).as("a stored call keeps its deadline").isEqualTo(deadline);
  }

  @Test
  void resolvingClearsTheDeadline() {
    ToolCall call = Upserts.toolCall(ToolCallWrite.of("c", "s", "search").withDeadline(CREATED.plusSeconds(1)),
        null, CREATED);

    assertThat(ToolCallTransitions.resolved(call, ToolCallStatus.CANCELLED, Json.emptyObject(), LATER).deadline())
        .isNull();
  }

  @Test
  void aResolutionAlreadyStoredAsAskedIsReplayedAnythingElseIsStale() {
    ToolCall pending = Upserts.toolCall(ToolCallWrite.of("c", "s", "search"), null, CREATED);
    ToolCall done = ToolCallTransitions.resolved(pending, ToolCallStatus.COMPLETED, Json.of("{\"a\":1}"), LATER);

    assertThat(ToolCallTransitions.settled("c", pending, ToolCallStatus.COMPLETED, Json.of("{\"a\":1}"))).isEmpty();
    assertThat(ToolCallTransitions.settled("c", done, ToolCallStatus.COMPLETED, Json.of("{\"a\":1}")))
        .containsInstanceOf(Resolution.Replayed.class);
    assertThat(ToolCallTransitions.settled("c", done, ToolCallStatus.COMPLETED, Json.of("{\"a\":2}")))
        .containsInstanceOf(Resolution.Stale.class);
    assertThat(ToolCallTransitions.settled("c", done, ToolCallStatus.FAILED, Json.of("{\"a\":1}")))
        .containsInstanceOf(Resolution.Stale.class);
    assertThat(ToolCallTransitions.settled("c", null, ToolCallStatus.COMPLETED, Json.emptyObject()))
        .contains(new Resolution.Stale("c", java.util.Optional.empty()));
  }

  @Test
  void withersRejectNullNamingTheField() {
    ToolCallWrite write = ToolCallWrite.of("c", "s", "search");

    assertField(() -> write.withRunId(null), "toolCall.runId");
    assertField(() -> write.withRequestEventId(null), "toolCall.requestEventId");
    assertField(() -> write.withArguments(null), "toolCall.arguments");
    assertField(() -> write.withDeadline(null), "toolCall.deadline");
    assertField(() -> RunWrite.of("r", "s").withStatus(null), "run.status");
    assertField(() -> RunWrite.of("r", "s").withUsage(null), "run.usage");
    assertField(() -> RunWrite.of("r", "s").withError(null), "run.error");
    assertField(() -> SessionWrite.of("s").withName(null), "session.name");
    assertField(() -> SessionWrite.of("s").withSettings(null), "session.settings");
    assertField(() -> SessionWrite.of("s").withMetadata(null), "session.metadata");
    assertField(() -> NewEvent.of("m").withPayload(null), "event.payload");
    assertField(() -> new ToolCallResolution("c", ToolCallStatus.EXPIRED, null), "resolution.status");
    assertField(() -> DeadlineChange.set("c", null), "deadline.deadline");
    assertField(() -> CheckpointChange.put("n", null), "checkpoint.data");
  }

  private static void assertField(Runnable call, String field) {
    assertThatThrownBy(call::run).isInstanceOf(InvalidArgumentException.class)
        .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo(field));
  }
}
