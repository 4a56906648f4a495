package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Capability;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.bare.BareStore;
import dev.sessionstore.memory.InMemorySessionStore;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the kit prints at the start of a run, and the skip reason its groups give, for stores with few capabilities. */
class KitReportTest {

  @Test
  void aBareStoreIsReportedWithEveryGroupItSkipsAndWhy() {
    try (SessionStore bare = BareStore.create(new TestClock())) {
      String report = KitReport.describe(new BrokenStoreKit(), bare);

      assertThat(report).contains("declares:         none")
          .contains("does not declare: WAITING_READS, CROSS_PROCESS_WAKEUP, TOOL_CALLS")
          .contains("runs   Steps (")
          .contains("runs   AbsentCapabilities (")
          .contains("skips  Forks (Forks): store does not declare Capability.FORKS")
          .contains("skips  Deadlines (Tool calls: deadlines held by the store): store does not declare "
              + "Capability.TOOL_CALLS, Capability.DEADLINES");
    }
  }

  @Test
  void aStoreDeclaringRetentionAloneRunsTheRetentionGroup() {
    try (SessionStore retaining = InMemorySessionStore.builder().capabilities(Set.of(Capability.RETENTION)).build()) {
      String report = KitReport.describe(new BrokenStoreKit(), retaining);

      assertThat(report).contains("declares:         RETENTION").contains("runs   Retention (")
          .contains("skips  Summaries (");
    }
  }

  @Test
  void theSkipReasonNamesEveryMissingCapabilityInDeclarationOrder() {
    assertThat(Capabilities.skipReason(EnumSet.of(Capability.FORKS, Capability.SUMMARIES, Capability.WAITING_READS)))
        .isEqualTo("store does not declare Capability.WAITING_READS, Capability.SUMMARIES, Capability.FORKS");
  }
}
