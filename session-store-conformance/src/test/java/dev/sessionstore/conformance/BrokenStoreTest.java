package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Archives;
import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.EventLog;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.Runs;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.Summaries;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
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

  /**
   * The kit's {@link SessionStoreConformance#newPeerStore} for {@link #brokenStore}: by default none ({@code null}),
   * like the in-memory store. A store whose bug is in what crosses instances overrides this.
   */
  protected SessionStore brokenPeer(SessionStore first, Clock clock) {
    return null;
  }

  /**
   * {@code store} declaring {@code claimed} on top of its own capabilities, everything else forwarded: how a broken
   * store claims what it cannot do.
   */
  protected static SessionStore declaring(SessionStore store, Capability... claimed) {
    return new DeclaringStore(store, Set.of(claimed));
  }

  @Test
  void theKitFailsTheBrokenStore() {
    KitRun run = KitRun.run(group, this::brokenStore, this::brokenPeer);

    assertThat(run.outcomes()).as("kit tests executed").isNotEmpty();
    assertThat(run.failedTests()).as("failed kit tests\n%s", run).contains(failingTest);
    assertThat(run.failureOf(failingTest)).contains(failureMentions);
  }

  /** Forwards everything to a delegate and adds capabilities to the ones it declares. */
  private static final class DeclaringStore implements SessionStore {

    private final SessionStore delegate;
    private final Set<Capability> claimed;

    DeclaringStore(SessionStore delegate, Set<Capability> claimed) {
      this.delegate = delegate;
      this.claimed = claimed;
    }

    @Override
    public Sessions sessions() {
      return delegate.sessions();
    }

    @Override
    public EventLog events() {
      return delegate.events();
    }

    @Override
    public Runs runs() {
      return delegate.runs();
    }

    @Override
    public ToolCalls toolCalls() {
      return delegate.toolCalls();
    }

    @Override
    public Summaries summaries() {
      return delegate.summaries();
    }

    @Override
    public Checkpoints checkpoints() {
      return delegate.checkpoints();
    }

    @Override
    public ModelCallAudit modelCalls() {
      return delegate.modelCalls();
    }

    @Override
    public Archives archives() {
      return delegate.archives();
    }

    @Override
    public StepOutcome commit(Step step) {
      return delegate.commit(step);
    }

    @Override
    public Set<Capability> capabilities() {
      Set<Capability> all = EnumSet.noneOf(Capability.class);
      all.addAll(delegate.capabilities());
      all.addAll(claimed);
      return Collections.unmodifiableSet(all);
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
