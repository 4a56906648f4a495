package dev.sessionstore.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Archives;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.EventLog;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.Retention;
import dev.sessionstore.Runs;
import dev.sessionstore.Search;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import dev.sessionstore.Summaries;
import dev.sessionstore.ToolCalls;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every method of the store and of each aggregate interface, default methods included, is declared by its forwarder:
 * a method added to an interface (a new aggregate, a new operation with a default body) fails here until the
 * forwarder forwards it, instead of silently running the interface's default in every decorator.
 */
class ForwardingCompletenessTest {

  static Stream<Arguments> forwarders() {
    return Stream.of(
        Arguments.of(SessionStore.class, ForwardingSessionStore.class),
        Arguments.of(StoreEventSource.class, ForwardingSessionStore.class),
        Arguments.of(Sessions.class, ForwardingSessions.class),
        Arguments.of(EventLog.class, ForwardingEventLog.class),
        Arguments.of(Runs.class, ForwardingRuns.class),
        Arguments.of(ToolCalls.class, ForwardingToolCalls.class),
        Arguments.of(Summaries.class, ForwardingSummaries.class),
        Arguments.of(Checkpoints.class, ForwardingCheckpoints.class),
        Arguments.of(ModelCallAudit.class, ForwardingModelCallAudit.class),
        Arguments.of(Search.class, ForwardingSearch.class),
        Arguments.of(Archives.class, ForwardingArchives.class),
        Arguments.of(Retention.class, ForwardingRetention.class));
  }

  @ParameterizedTest(name = "{1} forwards every method of {0}")
  @MethodSource("forwarders")
  void everyMethodIsForwarded(Class<?> api, Class<?> forwarder) {
    List<String> missing = Arrays.stream(api.getMethods())
        .filter(method -> !Modifier.isStatic(method.getModifiers()))
        .filter(method -> method.getDeclaringClass() != Object.class)
        .filter(method -> !declares(forwarder, method))
        .map(Method::toGenericString)
        .toList();

    assertThat(missing).as("methods of %s that %s does not declare", api.getSimpleName(), forwarder.getSimpleName())
        .isEmpty();
  }

  private static boolean declares(Class<?> forwarder, Method method) {
    try {
      forwarder.getDeclaredMethod(method.getName(), method.getParameterTypes());
      return true;
    } catch (NoSuchMethodException absent) {
      return false;
    }
  }
}
