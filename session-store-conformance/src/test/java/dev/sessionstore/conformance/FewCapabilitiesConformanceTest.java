package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Capability;
import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.platform.engine.TestExecutionResult.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole kit, every group, on stores that declare few capabilities: the in-memory store declaring none of the
 * optional ones, and declaring exactly one (with {@link Capability#TOOL_CALLS} beside {@link Capability#DEADLINES},
 * which it needs). Each run must be green: the groups of the declared capability verify it with only the required
 * parts beside it, and the absent-capability group verifies every refusal. Our adapters declare everything, so
 * without these runs a kit test that needs an undeclared capability without saying so, or a group that checks
 * nothing unless several capabilities are declared, would never show.
 */
class FewCapabilitiesConformanceTest {

  static Stream<Set<Capability>> declarations() {
    Stream<Set<Capability>> none = Stream.of(EnumSet.noneOf(Capability.class));
    Stream<Set<Capability>> one = InMemorySessionStore.AVAILABLE.stream()
        .map(capability -> capability == Capability.DEADLINES
            ? EnumSet.of(Capability.TOOL_CALLS, Capability.DEADLINES) : EnumSet.of(capability));
    return Stream.concat(none, one);
  }

  static SessionStore store(Clock clock, Set<Capability> declared) {
    return InMemorySessionStore.builder().clock(clock).capabilities(declared)
        .modelCallAudit(declared.contains(Capability.MODEL_CALL_AUDIT)).build();
  }

  @ParameterizedTest(name = "declaring {0}")
  @MethodSource("declarations")
  void theWholeKitPasses(Set<Capability> declared) {
    KitRun run = KitRun.runAll(clock -> store(clock, declared));

    assertThat(run.count(Status.SUCCESSFUL)).as("kit tests passed").isPositive();
    assertThat(run.failedTests()).as("kit tests failed on a store declaring %s:\n%s", declared,
        run.listing(Status.FAILED)).isEmpty();
  }
}
