package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Capability;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * The absent-capability group alone on every store of {@link FewCapabilitiesConformanceTest}: the refusals of what a
 * store lacks (the validating layer's, the in-memory store's, the archive rules'), in a fraction of the whole kit's
 * time. Mutation testing runs it as a target test beside the in-memory run, which declares every capability and so
 * never reaches a refusal; the whole kit on these stores is too slow to run once per mutant.
 */
class CapabilityRefusalsTest {

  @ParameterizedTest(name = "declaring {0}")
  @MethodSource("dev.sessionstore.conformance.FewCapabilitiesConformanceTest#declarations")
  void everyAbsentCapabilityIsRefused(Set<Capability> declared) {
    KitRun run = KitRun.run(SessionStoreConformance.AbsentCapabilities.class,
        clock -> FewCapabilitiesConformanceTest.store(clock, declared));

    assertThat(run.count(Status.SUCCESSFUL)).as("absent-capability tests passed").isPositive();
    assertThat(run.failedTests()).as("absent-capability tests failed on a store declaring %s:\n%s", declared,
        run.listing(Status.FAILED)).isEmpty();
  }
}
