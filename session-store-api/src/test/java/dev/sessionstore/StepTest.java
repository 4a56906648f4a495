package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class StepTest {

  @Test
  void buildsAnImmutableStepWithEveryMember() {
    byte[] data = {1, 2};
    Step step = Step.builder("s")
        .session(SessionWrite.of("s").withMetadata("k", "v"))
        .run(RunWrite.of("r", "s"))
        .truncateFrom(3)
        .event(NewEvent.of("m").withId("e1"))
        .registerToolCall(ToolCallWrite.of("c", "s", "t").withRequestEventId("e1"))
        .resolve("c0", ToolCallStatus.COMPLETED, null)
        .expireAt("c", Instant.parse("2030-01-01T00:00:00Z"))
        .summary(NewSummary.of(1, 2, Json.emptyObject()))
        .putCheckpoint("turn", data)
        .expectLastSeq(4)
        .build();
    data[0] = 9;

    assertThat(step.truncateFrom()).isEqualTo(OptionalLong.of(3));
    assertThat(step.expectedLastSeq()).isEqualTo(OptionalLong.of(4));
    assertThat(step.resolutions().get(0).result()).isEqualTo(Json.emptyObject());
    assertThat(step.checkpoints().get(0).data()).containsExactly(1, 2);
    assertThat(step.isEmpty()).isFalse();
    assertThat(Step.builder("s").build().isEmpty()).isTrue();
    assertThatThrownBy(() -> step.events().add(NewEvent.of("x"))).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void membersNamingAnotherSessionAreRejectedNamingTheField() {
    assertField(() -> Step.builder("s").session(SessionWrite.of("other")), "step.session.id");
    assertField(() -> Step.builder("s").run(RunWrite.of("r", "other")), "step.run.sessionId");
    assertField(() -> Step.builder("s").registerToolCall(ToolCallWrite.of("c", "other", "t")),
        "step.toolCall.sessionId");
    assertField(() -> new Step("s", Optional.empty(), Optional.empty(), OptionalLong.empty(), List.of(),
        List.of(ToolCallWrite.of("c", "other", "t")), List.of(), List.of(), Optional.empty(), List.of(),
        OptionalLong.empty(), Optional.empty(), OptionalLong.empty()), "step.toolCalls.sessionId");
    assertField(() -> Step.builder("s").fence(new WriterClaim("other", "node-a", 1)), "step.fence.sessionId");
  }

  @Test
  void badValuesAndRepeatsAreRejectedNamingTheField() {
    assertField(() -> Step.builder(null), "step.sessionId");
    assertField(() -> Step.builder("s").truncateFrom(0), "step.truncateFrom");
    assertField(() -> Step.builder("s").expectLastSeq(-1), "step.expectedLastSeq");
    assertField(() -> Step.builder("s").fence(0), "step.fence");
    assertField(() -> Step.builder("s").fence(1).fence(2), "step.fence");
    assertField(() -> Step.builder("s").event(null), "step.event");
    assertField(() -> Step.builder("s").summary(null), "step.summary");
    assertField(() -> Step.builder("s").run(RunWrite.of("r", "s")).run(RunWrite.of("r2", "s")), "step.run");
    assertField(() -> Step.builder("s").resolve("c", ToolCallStatus.PENDING, null), "resolution.status");
    assertField(() -> Step.builder("s").resolve("c", ToolCallStatus.COMPLETED, null)
        .resolve("c", ToolCallStatus.FAILED, null).build(), "step.resolutions[1]");
    assertField(() -> Step.builder("s").putCheckpoint("n", new byte[0]).deleteCheckpoint("n").build(),
        "step.checkpoints[1]");
    assertField(() -> Step.builder("s").expireAt("c", Instant.EPOCH).cancelDeadline("c").build(),
        "step.deadlines[1]");
  }

  @Test
  void twoDifferentEventsWithOneIdAreADuplicate() {
    assertThatThrownBy(() -> Step.builder("s").event(NewEvent.of("a").withId("e")).event(NewEvent.of("b").withId("e"))
        .build()).isInstanceOf(DuplicateEventException.class);
  }

  private static void assertField(Runnable call, String field) {
    assertThatThrownBy(call::run).isInstanceOf(InvalidArgumentException.class)
        .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo(field));
  }

  @Test
  void mergesMetadataIntoTheSessionUpsertLaterMergesWinning() {
    java.util.Map<String, String> removal = new java.util.HashMap<>();
    removal.put("gone", null);
    Step step = Step.builder("s")
        .mergeMetadata(java.util.Map.of("a", "1", "b", "merge"))
        .session(SessionWrite.of("s").withStatus(SessionStatus.PAUSED).withMetadata("b", "write"))
        .mergeMetadata(removal)
        .build();

    assertThat(step.session().orElseThrow().status()).isEqualTo(SessionStatus.PAUSED);
    assertThat(step.metadata()).containsEntry("a", "1").containsEntry("b", "merge").containsEntry("gone", null);
    assertThat(Step.builder("s").mergeMetadata(java.util.Map.of("a", "1")).build().session())
        .as("a merge alone makes a session upsert").contains(SessionWrite.of("s").withMetadata("a", "1"));
    assertThat(Step.builder("s").build().metadata()).isEmpty();
    assertField(() -> Step.builder("s").mergeMetadata(null), "step.metadata");
    assertField(() -> Step.builder("s").mergeMetadata(java.util.Map.of("", "v")), "step.metadata key");
  }

  @Test
  void carriesOneModelCall() {
    NewModelCall call = NewModelCall.of(3, "m", Json.emptyObject());
    Step step = Step.builder("s").modelCall(call).build();

    assertThat(step.modelCall()).contains(call);
    assertThat(step.isEmpty()).as("a step with only a model call").isFalse();
    assertField(() -> Step.builder("s").modelCall(null), "step.modelCall");
    assertField(() -> Step.builder("s").modelCall(call).modelCall(call), "step.modelCall");
  }
}
