package dev.sessionstore.conformance;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedClass;

import dev.sessionstore.SessionStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs one group of the kit against a store factory in-process and reports which tests failed, passed or were
 * skipped. Used to prove that the kit fails deliberately broken stores.
 */
final class KitRun {

  /** One executed kit test: its group's and method's names, outcome and failure message (if any). */
  record Outcome(String group, String method, TestExecutionResult.Status status, String message) {
  }

  private final List<Outcome> outcomes;

  private KitRun(List<Outcome> outcomes) {
    this.outcomes = outcomes;
  }

  /** Runs the nested kit group {@code group} against stores from {@code factory}, which have no peers. */
  static KitRun run(Class<?> group, Function<Clock, SessionStore> factory) {
    return run(group, factory, (first, clock) -> null);
  }

  /**
   * Runs the nested kit group {@code group} against stores from {@code factory}, with peers from
   * {@code peerFactory} (which may return null).
   */
  static KitRun run(Class<?> group, Function<Clock, SessionStore> factory,
      BiFunction<SessionStore, Clock, SessionStore> peerFactory) {
    return run(selectNestedClass(List.of(BrokenStoreKit.class), group), factory, peerFactory);
  }

  /** Runs every group of the kit against stores from {@code factory}, which have no peers. */
  static KitRun runAll(Function<Clock, SessionStore> factory) {
    return run(selectClass(BrokenStoreKit.class), factory, (first, clock) -> null);
  }

  private static synchronized KitRun run(DiscoverySelector selector, Function<Clock, SessionStore> factory,
      BiFunction<SessionStore, Clock, SessionStore> peerFactory) {
    BrokenStoreKit.factory = factory;
    BrokenStoreKit.peerFactory = peerFactory;
    List<Outcome> outcomes = new ArrayList<>();
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
        .selectors(selector)
        .build();
    Launcher launcher = LauncherFactory.create();
    launcher.execute(request, new TestExecutionListener() {
      @Override
      public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (test.isTest() && test.getSource().orElse(null) instanceof MethodSource source) {
          String message = result.getThrowable().map(Throwable::toString).orElse("");
          outcomes.add(new Outcome(source.getJavaClass().getSimpleName(), source.getMethodName(), result.getStatus(),
              message));
        }
      }

      @Override
      public void executionSkipped(TestIdentifier test, String reason) {
        if (test.isTest() && test.getSource().orElse(null) instanceof MethodSource source) {
          outcomes.add(new Outcome(source.getJavaClass().getSimpleName(), source.getMethodName(),
              TestExecutionResult.Status.ABORTED, reason));
        }
      }
    });
    BrokenStoreKit.factory = null;
    BrokenStoreKit.peerFactory = null;
    return new KitRun(outcomes);
  }

  List<Outcome> outcomes() {
    return outcomes;
  }

  /** Names of the tests that failed. */
  List<String> failedTests() {
    return outcomes.stream()
        .filter(outcome -> outcome.status() == TestExecutionResult.Status.FAILED)
        .map(Outcome::method)
        .collect(Collectors.toList());
  }

  /** The outcomes of {@code status}, one per line: group, method and message. */
  String listing(TestExecutionResult.Status status) {
    return outcomes.stream().filter(outcome -> outcome.status() == status)
        .map(o -> o.group() + "." + o.method() + ": " + o.message()).collect(Collectors.joining("\n"));
  }

  /** How many tests ended with {@code status}. */
  long count(TestExecutionResult.Status status) {
    return outcomes.stream().filter(outcome -> outcome.status() == status).count();
  }

  /** The failure message of {@code method}, or empty text when it did not fail. */
  String failureOf(String method) {
    return outcomes.stream()
        .filter(outcome -> outcome.method().equals(method) && outcome.status() == TestExecutionResult.Status.FAILED)
        .map(Outcome::message)
        .findFirst()
        .orElse("");
  }

  @Override
  public String toString() {
    return outcomes.stream().map(o -> o.method() + " " + o.status()).collect(Collectors.joining("\n"));
  }
}
