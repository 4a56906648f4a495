package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** {@link KitGroups} runs the groups it names, in full, and reports every other group disabled with its reason. */
class KitGroupsTest {

  private static final String REASON = "the whole kit runs on the plain store";

  /** A decorator-style run that names two groups (not discovered by the build: a nested class). */
  @KitGroups(value = {PayloadContract.class, LastSeqContract.class}, reason = REASON)
  static class TwoGroups extends SessionStoreConformance {
    @Override
    protected SessionStore newStore(Clock clock) {
      return InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
    }
  }

  @Test
  @DisplayName("Only the named groups run, every test of them; each other group is disabled with the reason")
  void namedGroupsRun() {
    Results results = run(TwoGroups.class);

    assertThat(results.passedGroups).containsOnly("Payloads", "LastSeq");
    assertThat(results.failed).isEmpty();
    assertThat(results.skippedGroups).containsKeys("Sessions", "EventAppends", "Archives", "SharedBackend")
        .doesNotContainKeys("Payloads", "LastSeq")
        .containsEntry("Sessions", "Sessions runs elsewhere: " + REASON);
    assertThat(results.skippedGroups).hasSize(SessionStoreConformance.class.getDeclaredClasses().length - 2);
  }

  /** What one launcher run of a kit class did, by nested group's simple name. */
  private static final class Results {
    final List<String> passedGroups = new ArrayList<>();
    final List<String> failed = new ArrayList<>();
    final Map<String, String> skippedGroups = new ConcurrentHashMap<>();
  }

  private static Results run(Class<?> kit) {
    Results results = new Results();
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectClass(kit)).build();
    LauncherFactory.create().execute(request, new TestExecutionListener() {
      @Override
      public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (test.isTest() && test.getSource().orElse(null) instanceof MethodSource source) {
          String group = source.getJavaClass().getSimpleName();
          if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL && !results.passedGroups.contains(group)) {
            results.passedGroups.add(group);
          } else if (result.getStatus() == TestExecutionResult.Status.FAILED) {
            results.failed.add(group + "." + source.getMethodName());
          }
        }
      }

      @Override
      public void executionSkipped(TestIdentifier test, String reason) {
        if (test.isContainer() && test.getSource().orElse(null) instanceof ClassSource source) {
          results.skippedGroups.put(source.getJavaClass().getSimpleName(), reason);
        }
      }
    });
    return results;
  }
}
