package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Archives;
import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.EventLog;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.Retention;
import dev.sessionstore.Runs;
import dev.sessionstore.Search;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.Summaries;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Proves the kit catches one deliberately broken store: runs the kit groups that cover the broken rule and asserts
 * that each named test fails, with a message that points at the bug. Where the kit has two independent checks of a
 * guarantee, a broken store names both, so that neither can quietly stop catching it. Subclasses live in {@code broken/} beside the
 * store they break. A broken store the kit lets pass is a bug in the kit.
 */
public abstract class BrokenStoreTest {

  /**
   * One kit test that must fail on the broken store.
   *
   * @param group    the kit group ({@code SessionStoreConformance.Xxx.class}) the test belongs to
   * @param test     the kit test method that must fail
   * @param mentions text the failure message must contain, so the failure is for the right reason
   */
  public record Caught(Class<?> group, String test, String mentions) {
  }

  private final List<Caught> catches;

  /**
   * @param group           the kit group ({@code SessionStoreConformance.Xxx.class}) that must catch the bug
   * @param failingTest     the kit test method that must fail
   * @param failureMentions text the failure message must contain, so the failure is for the right reason
   */
  protected BrokenStoreTest(Class<?> group, String failingTest, String failureMentions) {
    this(new Caught(group, failingTest, failureMentions));
  }

  /**
   * A broken store that several kit tests must each catch, independently: every one of them must fail, for the
   * reason it names.
   */
  protected BrokenStoreTest(Caught first, Caught... more) {
    List<Caught> all = new ArrayList<>();
    all.add(first);
    all.addAll(List.of(more));
    this.catches = List.copyOf(all);
  }

  /** The correct store every broken store is built on: the in-memory store, with the model-call audit on. */
  protected static SessionStore correctStore(Clock clock) {
    return InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
  }

  /** The kit tests that must each catch this store. */
  final List<Caught> catches() {
    return catches;
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
    Map<Class<?>, KitRun> runs = new LinkedHashMap<>();
    for (Caught caught : catches) {
      KitRun run = runs.computeIfAbsent(caught.group(),
          group -> KitRun.run(group, this::brokenStore, this::brokenPeer));

      assertThat(run.outcomes()).as("kit tests executed in %s", caught.group().getSimpleName()).isNotEmpty();
      assertThat(run.failedTests()).as("failed kit tests of %s\n%s", caught.group().getSimpleName(), run)
          .contains(caught.test());
      assertThat(run.failureOf(caught.test())).as("failure of %s", caught.test()).contains(caught.mentions());
    }
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
    public Retention retention() {
      return delegate.retention();
    }

    @Override
    public Search search() {
      return delegate.search();
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
