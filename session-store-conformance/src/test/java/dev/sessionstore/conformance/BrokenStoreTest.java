package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SessionStore;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * Proves the kit catches one deliberately broken store: runs the kit group that covers the broken rule and asserts
 * that the named test fails, with a message that points at the bug. Subclasses live in {@code broken/} beside the
 * store they break. A broken store the kit lets pass is a bug in the kit.
 */
public abstract class BrokenStoreTest {

  /** A store with exactly one bug, built on the in-memory store. */
  protected abstract SessionStore brokenStore(Clock clock);

  /** The kit group ({@code SessionStoreConformance.Xxx.class}) that must catch it. */
  protected abstract Class<?> group();

  /** The kit test method that must fail. */
  protected abstract String failingTest();

  /** Text the failure message must contain, so the failure is for the right reason. */
  protected abstract String failureMentions();

  @Test
  void theKitFailsTheBrokenStore() {
    KitRun run = KitRun.run(group(), this::brokenStore);

    assertThat(run.outcomes()).as("kit tests executed").isNotEmpty();
    assertThat(run.failedTests()).as("failed kit tests\n%s", run).contains(failingTest());
    assertThat(run.failureOf(failingTest())).contains(failureMentions());
  }
}
