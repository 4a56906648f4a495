package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StepOutcomeTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final ToolCall DONE = new ToolCall("c1", "s", null, null, "approve", Json.emptyObject(),
      ToolCallStatus.COMPLETED, Json.emptyObject(), null, T0, T0);
  private static final Session SESSION = new Session("s", null, null, null, SessionStatus.ACTIVE, Json.emptyObject(),
      Map.of(), null, T0, T0, null, 7);

  private static StepResult result(List<Resolution> resolutions) {
    return new StepResult(SESSION, Optional.empty(), 0, List.of(), List.of(), resolutions, Optional.empty(), List.of(),
        Optional.empty());
  }

  @Test
  void aCommittedOutcomeReadsWithoutCasts() {
    StepResult result = result(List.of(new Resolution.Resolved(DONE)));
    StepOutcome outcome = new StepOutcome.Committed(result);

    assertThat(outcome.committed()).contains(result);
    assertThat(outcome.orElseThrow()).isSameAs(result);
    assertThat(outcome.stale()).isEmpty();
    assertThat(outcome.orElseThrow().lastSeq()).as("the result's last seq is its session's").isEqualTo(7);
  }

  @Test
  void aRejectedOutcomeThrowsATypedConflictNamingEachStaleCall() {
    Resolution.Stale unknown = new Resolution.Stale("c9", Optional.empty());
    Resolution.Stale resolved = new Resolution.Stale("c1", Optional.of(DONE));
    StepOutcome outcome = new StepOutcome.Rejected(List.of(unknown, resolved));

    assertThat(outcome.committed()).isEmpty();
    assertThat(outcome.stale()).containsExactly(unknown, resolved);
    assertThatThrownBy(outcome::orElseThrow)
        .isInstanceOfSatisfying(StaleResolutionException.class,
            e -> assertThat(e.stale()).containsExactly(unknown, resolved))
        .isInstanceOf(ConflictException.class)
        .hasMessage("stale resolution: tool call c9 does not exist; tool call c1 is completed");
  }

  @Test
  void resolutionsReadWithoutCasts() {
    Resolution resolved = new Resolution.Resolved(DONE);
    Resolution replayed = new Resolution.Replayed(DONE);
    Resolution stale = new Resolution.Stale("c1", Optional.of(DONE));

    assertThat(resolved.resolved()).contains((Resolution.Resolved) resolved);
    assertThat(resolved.replayed()).isEmpty();
    assertThat(resolved.stale()).isEmpty();
    assertThat(resolved.toolCall()).contains(DONE);
    assertThat(resolved.orElseThrow()).isEqualTo(DONE);

    assertThat(replayed.replayed()).contains((Resolution.Replayed) replayed);
    assertThat(replayed.resolved()).isEmpty();
    assertThat(replayed.orElseThrow()).isEqualTo(DONE);

    assertThat(stale.stale()).contains((Resolution.Stale) stale);
    assertThat(stale.resolved()).isEmpty();
    assertThat(stale.toolCall()).as("what is stored now").contains(DONE);
    assertThat(new Resolution.Stale("c2", Optional.empty()).toolCall()).isEmpty();
    assertThatThrownBy(stale::orElseThrow).isInstanceOfSatisfying(StaleResolutionException.class,
        e -> assertThat(e.stale()).containsExactly((Resolution.Stale) stale));
  }

  @Test
  void aStaleResolutionExceptionNeedsAStaleResolution() {
    assertThatThrownBy(() -> new StaleResolutionException(List.of()))
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("stale"));
  }
}
