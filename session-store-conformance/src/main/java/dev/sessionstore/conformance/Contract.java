package dev.sessionstore.conformance;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sessionstore.Capability;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of every kit group: opens a fresh store with its own {@link TestClock} before each test and closes it after.
 * A group that verifies an optional capability names it in {@link #requiredCapabilities()}; when the store does not
 * declare it, each test of the group is reported as skipped with that reason.
 */
public abstract class Contract {

  private final SessionStoreConformance kit;
  private final AtomicInteger ids = new AtomicInteger();

  /** The store under test, fresh for each test. */
  protected SessionStore store;
  /** The store's clock; advance it instead of sleeping. */
  protected TestClock clock;

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected Contract(SessionStoreConformance kit) {
    this.kit = kit;
  }

  /** The optional capabilities this group verifies; the group is skipped unless the store declares all of them. */
  protected Set<Capability> requiredCapabilities() {
    return Set.of();
  }

  @BeforeEach
  final void openStore() {
    clock = new TestClock();
    store = kit.newStore(clock);
    KitReport.printOnce(kit, store);
    Set<Capability> missing = Capabilities.missing(store, requiredCapabilities());
    assumeTrue(missing.isEmpty(), () -> Capabilities.skipReason(missing));
  }

  /**
   * Skips the calling test unless the store declares every one of {@code needed}, naming each it lacks: for a test
   * of a group that runs without them but needs them for what it checks.
   */
  protected final void assumeDeclared(Capability... needed) {
    Set<Capability> missing = Capabilities.missing(store, List.of(needed));
    assumeTrue(missing.isEmpty(), () -> Capabilities.skipReason(missing));
  }

  @AfterEach
  final void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  /**
   * A second instance on the same backend and namespace as {@link #store}, from
   * {@link SessionStoreConformance#newPeerStore}, or {@code null} when the adapter has none. The caller closes it.
   */
  protected SessionStore peerStore() {
    return kit.newPeerStore(store, clock);
  }

  /**
   * Another new, empty store from {@link SessionStoreConformance#newStore}, isolated from {@link #store} and reading
   * the same {@link #clock}: the target of a move between stores. The caller closes it.
   */
  protected SessionStore otherStore() {
    return kit.newStore(clock);
  }

  /** A fresh id with a readable prefix, unique within the test. */
  protected String id(String prefix) {
    return prefix + "-" + ids.incrementAndGet();
  }

  /** Parses JSON text. */
  protected static Json json(String text) {
    return Json.of(text);
  }

  /** An event with id {@code id}, type {@code "message"} and payload {@code {"n": id}}. */
  protected static NewEvent event(String id) {
    return NewEvent.of("message", Json.of("{\"n\":\"" + id + "\"}")).withId(id);
  }
}
