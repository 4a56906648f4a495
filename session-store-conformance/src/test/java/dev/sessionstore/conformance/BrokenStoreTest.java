package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * Proves the kit catches one deliberately broken store: runs the kit group that covers the broken rule and asserts
 * that the named test fails, with a message that points at the bug. Subclasses live in {@code broken/} beside the
 * store they break. A broken store the kit lets pass is a bug in the kit.
 */
public abstract class BrokenStoreTest {

  private final Class<?> group;
  private final String failingTest;
  private final String failureMentions;

  /**
   * @param group           the kit group ({@code SessionStoreConformance.Xxx.class}) that must catch the bug
   * @param failingTest     the kit test method that must fail
   * @param failureMentions text the failure message must contain, so the failure is for the right reason
   */
  protected BrokenStoreTest(Class<?> group, String failingTest, String failureMentions) {
    this.group = group;
    this.failingTest = failingTest;
    this.failureMentions = failureMentions;
  }

  /** The correct store every broken store is built on: the in-memory store, with the model-call audit on. */
  protected static SessionStore correctStore(Clock clock) {
    return InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
  }

  /** A store with exactly one bug, built on {@link #correctStore}. */
  protected abstract SessionStore brokenStore(Clock clock);

  @Test
  void theKitFailsTheBrokenStore() {
    KitRun run = KitRun.run(group, this::brokenStore);

    assertThat(run.outcomes()).as("kit tests executed").isNotEmpty();
    assertThat(run.failedTests()).as("failed kit tests\n%s", run).contains(failingTest);
    assertThat(run.failureOf(failingTest)).contains(failureMentions);
  }
}
