package dev.sessionstore.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The {@code session-store.retention.*} properties, on either Spring Boot line: each property's effect on the policy,
 * the store applying it on its own schedule (in memory and on SQLite), and each bad value failing startup with a
 * message naming the property.
 */
class RetentionPropertiesTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(SessionStoreAutoConfiguration.class));

  @TempDir
  Path folder;

  private static Optional<RetentionPolicy> policy(AssertableApplicationContext context) {
    assertThat(context).hasNotFailed();
    return context.getBean(SessionStoreProperties.class).retention().policy();
  }

  @Test
  @DisplayName("without retention properties there is no policy, and the interval defaults to 10 minutes")
  void offByDefault() {
    runner.withPropertyValues("session-store.type=memory").run(context -> {
      assertThat(policy(context)).isEmpty();
      assertThat(context.getBean(SessionStoreProperties.class).retention().interval())
          .isEqualTo(Duration.ofMinutes(10));
    });
  }

  @Test
  @DisplayName("session-store.retention.idle-for deletes sessions idle for longer than the age")
  void idleFor() {
    runner.withPropertyValues("session-store.type=memory", "session-store.retention.idle-for=30d").run(context ->
        assertThat(policy(context)).contains(RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(30))
            .build()));
  }

  @Test
  @DisplayName("session-store.retention.statuses narrows the idle rule to those statuses")
  void statuses() {
    runner.withPropertyValues("session-store.type=memory", "session-store.retention.idle-for=12h",
        "session-store.retention.statuses=completed,failed").run(context ->
        assertThat(policy(context)).contains(RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofHours(12))
            .onlyStatuses(SessionStatus.COMPLETED, SessionStatus.FAILED).build()));
  }

  @Test
  @DisplayName("session-store.retention.tenant narrows the idle rule to one tenant")
  void tenant() {
    runner.withPropertyValues("session-store.type=memory", "session-store.retention.idle-for=1d",
        "session-store.retention.tenant=acme").run(context ->
        assertThat(policy(context)).contains(RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(1))
            .onlyTenant("acme").build()));
  }

  @Test
  @DisplayName("session-store.retention.keep-events bounds the events per session")
  void keepEvents() {
    runner.withPropertyValues("session-store.type=memory", "session-store.retention.keep-events=2000").run(context ->
        assertThat(policy(context)).contains(RetentionPolicy.builder().keepEventsPerSession(2000).build()));
  }

  @Test
  @DisplayName("session-store.retention.model-calls-older-than removes old audit rows")
  void modelCallsOlderThan() {
    runner.withPropertyValues("session-store.type=memory", "session-store.retention.model-calls-older-than=7d")
        .run(context -> assertThat(policy(context)).contains(RetentionPolicy.builder()
            .deleteModelCallsOlderThan(Duration.ofDays(7)).build()));
  }

  @Test
  @DisplayName("the in-memory store applies the policy every session-store.retention.interval: idle completed "
      + "sessions go, others stay")
  void memoryStoreAppliesItsPolicy() {
    runner.withPropertyValues("session-store.type=memory", "session-store.retention.idle-for=0s",
        "session-store.retention.statuses=completed", "session-store.retention.interval=50ms").run(context -> {
          SessionStore store = context.getBean(SessionStore.class);
          store.sessions().save(SessionWrite.of("open"));
          store.sessions().save(SessionWrite.of("done").withStatus(SessionStatus.COMPLETED));
          awaitTrue(() -> store.sessions().find("done").isEmpty());
          Thread.sleep(200);
          assertThat(store.sessions().find("open")).isPresent();
        });
  }

  @Test
  @DisplayName("the SQLite store applies the policy on its schedule: the tenant's idle sessions go, others stay")
  void sqliteStoreAppliesItsPolicy() {
    runner.withPropertyValues("session-store.sqlite.path=" + folder.resolve("retention.db"),
        "session-store.retention.idle-for=0s", "session-store.retention.tenant=acme",
        "session-store.retention.interval=50ms").run(context -> {
          SessionStore store = context.getBean(SessionStore.class);
          store.sessions().save(SessionWrite.of("other").withTenant("globex"));
          store.sessions().save(SessionWrite.of("old").withTenant("acme"));
          awaitTrue(() -> store.sessions().find("old").isEmpty());
          Thread.sleep(200);
          assertThat(store.sessions().find("other")).isPresent();
        });
  }

  @Test
  @DisplayName("a negative session-store.retention.idle-for fails startup naming it")
  void negativeIdleFor() {
    assertFailsNaming("session-store.retention.idle-for", "session-store.retention.idle-for=-1d");
  }

  @Test
  @DisplayName("session-store.retention.keep-events below 1 fails startup naming it")
  void keepEventsBelowOne() {
    assertFailsNaming("session-store.retention.keep-events", "session-store.retention.keep-events=0");
  }

  @Test
  @DisplayName("a negative session-store.retention.model-calls-older-than fails startup naming it")
  void negativeModelCallAge() {
    assertFailsNaming("session-store.retention.model-calls-older-than",
        "session-store.retention.model-calls-older-than=-5m");
  }

  @Test
  @DisplayName("session-store.retention.statuses without idle-for fails startup naming it")
  void statusesWithoutIdleFor() {
    assertFailsNaming("session-store.retention.statuses", "session-store.retention.statuses=completed");
  }

  @Test
  @DisplayName("session-store.retention.tenant without idle-for fails startup naming it")
  void tenantWithoutIdleFor() {
    assertFailsNaming("session-store.retention.tenant", "session-store.retention.tenant=acme");
  }

  @Test
  @DisplayName("a blank session-store.retention.tenant fails startup naming it")
  void blankTenant() {
    assertFailsNaming("session-store.retention.tenant", "session-store.retention.idle-for=1d",
        "session-store.retention.tenant= ");
  }

  @Test
  @DisplayName("a blank status in session-store.retention.statuses fails startup naming it")
  void blankStatus() {
    assertFailsNaming("session-store.retention.statuses", "session-store.retention.idle-for=1d",
        "session-store.retention.statuses[0]= ");
  }

  @Test
  @DisplayName("a zero session-store.retention.interval fails startup naming it")
  void zeroInterval() {
    assertFailsNaming("session-store.retention.interval", "session-store.retention.keep-events=10",
        "session-store.retention.interval=0s");
  }

  @Test
  @DisplayName("a session-store.retention.interval above the JDBC store's 1 hour fails startup naming it")
  void jdbcIntervalAboveAnHour() {
    runner.withPropertyValues("session-store.sqlite.path=" + folder.resolve("x.db"),
        "session-store.retention.keep-events=10", "session-store.retention.interval=2h").run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).hasStackTraceContaining("session-store.retention.interval: ");
        });
  }

  @Test
  @DisplayName("a value that is no duration fails startup naming the property (Spring's binder says so)")
  void notADuration() {
    runner.withPropertyValues("session-store.type=memory", "session-store.retention.idle-for=a month").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure())
          .hasStackTraceContaining("Failed to bind properties under 'session-store.retention.idle-for'");
    });
  }

  /** Startup fails with the auto-configuration's message, which starts with the property's name. */
  private void assertFailsNaming(String property, String... values) {
    runner.withPropertyValues("session-store.type=memory").withPropertyValues(values).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).hasStackTraceContaining(property + ": ");
    });
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within 10 s").isLessThan(deadline);
      Thread.sleep(20);
    }
  }
}
