package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.Json;
import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Runs;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionWrite;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Runs: upsert (guarantee 3 of docs/guarantees.md), defaults, listing in creation order and by status (13), and the
 * active run with read-after-write visibility from any thread (6).
 *
 * <p>If this fails, check: that {@code save} merges into the stored run (omitted fields keep their values,
 * {@code createdAt} is kept) and refuses a run id stored under another session without changing anything; that runs
 * are listed by creation time, then id; and that the active run is read from the committed state: the running run
 * updated last, with no cache that a save on another thread can leave stale.
 */
public abstract class RunsContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected RunsContract(SessionStoreConformance kit) {
    super(kit);
  }

  private Runs runs() {
    return store.runs();
  }

  private Run save(String runId, String sessionId, RunStatus status) {
    return runs().save(RunWrite.of(runId, sessionId).withStatus(status));
  }

  @Test
  @Tag("guarantee-6")
  @DisplayName("Save returns the run as stored, and find returns the same run")
  void saveReturnsTheRunAsStored() {
    String session = id("s");
    Run saved = runs().save(RunWrite.of("run-1", session)
        .withStatus(RunStatus.FAILED)
        .withUsage(json("{\"input_tokens\":1200,\"cost\":0.0042}"))
        .withError(json("{\"kind\":\"timeout\",\"after_ms\":30000}")));

    assertThat(saved.id()).isEqualTo("run-1");
    assertThat(saved.sessionId()).isEqualTo(session);
    assertThat(saved.status()).isEqualTo(RunStatus.FAILED);
    assertThat(saved.usage()).isEqualTo(json("{\"input_tokens\":1200,\"cost\":0.0042}"));
    assertThat(saved.error()).isEqualTo(json("{\"kind\":\"timeout\",\"after_ms\":30000}"));
    assertThat(runs().find(session, "run-1")).as("find after save").contains(saved);
  }

  @Test
  @DisplayName("A new run takes the defaults: pending, usage {}, no error, created and updated at the clock's time")
  void newRunTakesTheDefaults() {
    clock.advance(Duration.ofSeconds(42));

    String session = id("s");
    Run saved = runs().save(RunWrite.of("run-1", session));

    assertThat(saved.status()).isEqualTo(RunStatus.PENDING);
    assertThat(saved.usage()).isEqualTo(Json.emptyObject());
    assertThat(saved.error()).isNull();
    assertThat(saved.createdAt()).isEqualTo(TestClock.START.plusSeconds(42));
    assertThat(saved.updatedAt()).isEqualTo(TestClock.START.plusSeconds(42));
    assertThat(runs().find(session, "run-1")).contains(saved);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Saving a run twice upserts: one run, listed once")
  void savingTwiceUpserts() {
    String session = id("s");
    RunWrite write = RunWrite.of("run-1", session).withStatus(RunStatus.RUNNING);

    runs().save(write);
    Run second = runs().save(write);

    assertThat(runs().list(session)).containsExactly(second);
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Fields a run write leaves out keep their stored values")
  void omittedFieldsKeepTheirStoredValues() {
    String session = id("s");
    runs().save(RunWrite.of("run-1", session).withStatus(RunStatus.RUNNING).withUsage(json("{\"tokens\":10}")));

    Run failed = runs().save(RunWrite.of("run-1", session).withError(json("{\"reason\":\"boom\"}")));
    Run completed = runs().save(RunWrite.of("run-1", session).withStatus(RunStatus.COMPLETED));

    assertThat(failed.status()).as("status after a write without status").isEqualTo(RunStatus.RUNNING);
    assertThat(failed.usage()).as("usage after a write without usage").isEqualTo(json("{\"tokens\":10}"));
    assertThat(completed.error()).as("error after a write without error").isEqualTo(json("{\"reason\":\"boom\"}"));
    assertThat(completed.usage()).isEqualTo(json("{\"tokens\":10}"));
    assertThat(runs().find(session, "run-1")).contains(completed);
  }

  @Test
  @DisplayName("An update keeps createdAt and moves updatedAt to the clock's time")
  void updateKeepsCreatedAtAndMovesUpdatedAt() {
    String session = id("s");
    runs().save(RunWrite.of("run-1", session));
    clock.advance(Duration.ofMinutes(2));

    Run updated = runs().save(RunWrite.of("run-1", session).withStatus(RunStatus.RUNNING));

    assertThat(updated.createdAt()).isEqualTo(TestClock.START);
    assertThat(updated.updatedAt()).isEqualTo(TestClock.START.plus(Duration.ofMinutes(2)));
    assertThat(runs().find(session, "run-1")).contains(updated);
  }

  @Test
  @DisplayName("Finding an unknown run is empty, and run ids are byte-exact")
  void findingUnknownRunsIsEmpty() {
    String session = id("s");
    runs().save(RunWrite.of("Run-1", session));

    assertThat(runs().find(session, "no-such-run")).isEmpty();
    assertThat(runs().find(id("s"), "Run-1")).as("the run id in another session").isEmpty();
    assertThat(runs().find(session, "run-1")).isEmpty();
    assertThat(runs().find(session, "Run-1 ")).isEmpty();
    assertThat(runs().find(session, "Run-1")).isPresent();
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("A session's runs are listed in creation order, then by id; updates do not reorder them")
  void listIsInCreationOrder() {
    String session = id("s");
    runs().save(RunWrite.of("run-c", session));
    clock.advance(Duration.ofSeconds(1));
    runs().save(RunWrite.of("run-a", session));
    clock.advance(Duration.ofSeconds(1));
    runs().save(RunWrite.of("run-e", session));
    runs().save(RunWrite.of("run-b", session));
    clock.advance(Duration.ofSeconds(1));
    runs().save(RunWrite.of("run-c", session).withStatus(RunStatus.COMPLETED));

    assertThat(runs().list(session)).extracting(Run::id).containsExactly("run-c", "run-a", "run-b", "run-e");
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("Listing lists only the session's own runs, and is empty for an unknown session")
  void listIsPerSession() {
    String mine = id("s");
    String other = id("s");
    save("run-1", mine, RunStatus.RUNNING);
    save("run-2", other, RunStatus.RUNNING);
    save("run-3", mine, RunStatus.COMPLETED);

    assertThat(runs().list(mine)).extracting(Run::id).containsExactly("run-1", "run-3");
    assertThat(runs().list(other)).extracting(Run::id).containsExactly("run-2");
    assertThat(runs().list("unknown-session")).isEmpty();
    assertThat(runs().list("unknown-session", RunStatus.RUNNING)).isEmpty();
  }

  @Test
  @Tag("guarantee-13")
  @DisplayName("Listing by status returns the session's runs with that status, in creation order")
  void listByStatus() {
    String session = id("s");
    String other = id("s");
    save("run-1", session, RunStatus.COMPLETED);
    clock.advance(Duration.ofSeconds(1));
    save("run-2", session, RunStatus.FAILED);
    clock.advance(Duration.ofSeconds(1));
    save("run-3", session, RunStatus.COMPLETED);
    save("run-4", other, RunStatus.COMPLETED);
    save("run-5", session, RunStatus.RUNNING);

    assertThat(runs().list(session, RunStatus.COMPLETED)).extracting(Run::id).containsExactly("run-1", "run-3");
    assertThat(runs().list(session, RunStatus.FAILED)).extracting(Run::id).containsExactly("run-2");
    assertThat(runs().list(session, RunStatus.CANCELLED)).isEmpty();

    save("run-2", session, RunStatus.COMPLETED);
    assertThat(runs().list(session, RunStatus.COMPLETED)).as("completed runs after run-2 completed")
        .extracting(Run::id).containsExactly("run-1", "run-2", "run-3");
    assertThat(runs().list(session, RunStatus.FAILED)).isEmpty();
  }

  @Test
  @DisplayName("Lists of runs cannot be modified by the caller")
  void returnedListsAreUnmodifiable() {
    String session = id("s");
    save("run-1", session, RunStatus.RUNNING);

    assertThat(runs().list(session)).as("list returned by runs().list(sessionId)").isUnmodifiable();
    assertThat(runs().list(session, RunStatus.RUNNING)).as("list returned by runs().list(sessionId, status)")
        .isUnmodifiable();
    assertThat(store.sessions().listResumable()).as("list returned by sessions().listResumable()").isUnmodifiable();
  }

  @Test
  @Tag("guarantee-6")
  @DisplayName("The active run is the session's running run")
  void activeRunIsTheRunningOne() {
    String session = id("s");
    save("run-1", session, RunStatus.COMPLETED);
    Run running = save("run-2", session, RunStatus.RUNNING);
    save("run-3", session, RunStatus.PENDING);
    save("run-4", id("s"), RunStatus.RUNNING);

    assertThat(runs().active(session)).contains(running);
  }

  @Test
  @Tag("guarantee-6")
  @DisplayName("There is no active run when none is running, nor for an unknown session")
  void noActiveRunWhenNoneRuns() {
    String session = id("s");
    save("run-1", session, RunStatus.PENDING);
    save("run-2", session, RunStatus.COMPLETED);
    save("run-3", session, RunStatus.FAILED);
    save("run-4", session, RunStatus.CANCELLED);

    assertThat(runs().active(session)).isEmpty();
    assertThat(runs().active("unknown-session")).isEmpty();
  }

  @Test
  @Tag("guarantee-6")
  @DisplayName("The active run follows status changes: a completed run is no longer active")
  void activeRunFollowsStatusChanges() {
    String session = id("s");
    Run running = save("run-1", session, RunStatus.RUNNING);
    assertThat(runs().active(session)).contains(running);

    save("run-1", session, RunStatus.COMPLETED);

    assertThat(runs().active(session)).as("active run after it completed").isEmpty();
  }

  @Test
  @Tag("guarantee-6")
  @DisplayName("When several runs are running, the active one is the most recently updated")
  void activeRunIsTheMostRecentlyUpdated() {
    String session = id("s");
    save("run-b", session, RunStatus.RUNNING);
    clock.advance(Duration.ofSeconds(1));
    Run newer = save("run-a", session, RunStatus.RUNNING);

    assertThat(runs().active(session)).as("active run of two running").contains(newer);

    clock.advance(Duration.ofSeconds(1));
    Run touched = runs().save(RunWrite.of("run-b", session).withUsage(json("{\"tokens\":5}")));

    assertThat(runs().active(session)).as("active run after the older one was updated").contains(touched);
  }

  @Test
  @Tag("guarantee-6")
  @DisplayName("A run saved as running is the active run for the very next call from another thread")
  void activeRunIsVisibleToAnotherThreadRightAfterSave() throws Exception {
    String session = id("s");
    ExecutorService reader = Executors.newSingleThreadExecutor();
    try {
      for (int i = 0; i < 200; i++) {
        if (i > 0) {
          save("run-" + (i - 1), session, RunStatus.COMPLETED);
        }
        Run running = save("run-" + i, session, RunStatus.RUNNING);
        if (i % 10 == 0) {
          clock.advance(Duration.ofMillis(1));
        }

        Optional<Run> seen = reader.submit(() -> runs().active(session)).get(10, TimeUnit.SECONDS);

        assertThat(seen).as("active run read by another thread right after saving run-%d", i).contains(running);
      }
    } catch (ExecutionException | TimeoutException e) {
      throw new AssertionError("reading the active run on another thread failed: " + e, e);
    } finally {
      reader.shutdownNow();
    }
  }

  @Test
  @Tag("guarantee-19")
  @DisplayName("The same run id in two sessions names two independent runs")
  void runIdsAreScopedBySession() {
    String first = id("s");
    String second = id("s");
    Run original = save("run-1", first, RunStatus.RUNNING);

    Run other = runs().save(RunWrite.of("run-1", second).withStatus(RunStatus.FAILED));

    assertThat(other.sessionId()).isEqualTo(second);
    assertThat(runs().find(first, "run-1")).contains(original);
    assertThat(runs().find(second, "run-1")).contains(other);
    assertThat(runs().active(first)).contains(original);
    assertThat(runs().active(second)).isEmpty();
    assertThat(runs().list(second)).containsExactly(other);
  }

  @Test
  @DisplayName("A waiting run is the active run, and the most recently updated of a running and a waiting run wins")
  void aWaitingRunIsActive() {
    String session = id("s");
    Run running = save("run-1", session, RunStatus.RUNNING);
    clock.advance(Duration.ofSeconds(1));
    Run waiting = save("run-2", session, RunStatus.WAITING);

    assertThat(runs().active(session)).as("active of running and later waiting").contains(waiting);
    assertThat(runs().list(session, RunStatus.WAITING)).containsExactly(waiting);

    clock.advance(Duration.ofHours(5));
    Run resumed = save("run-1", session, RunStatus.RUNNING);
    assertThat(runs().active(session)).as("active after the running one was updated").contains(resumed);

    save("run-1", session, RunStatus.COMPLETED);
    assertThat(runs().active(session)).as("active after the running one completed").contains(waiting);
    save("run-2", session, RunStatus.COMPLETED);
    assertThat(runs().active(session)).as("active once both completed").isEmpty();
  }

  @Test
  @DisplayName("Saving a run for an unknown session creates the session, active")
  void savingARunCreatesTheSession() {
    String session = id("s");

    runs().save(RunWrite.of("run-1", session));

    Session created = store.sessions().find(session)
        .orElseThrow(() -> new AssertionError("saving a run did not create its session"));
    assertThat(created.status()).isEqualTo(SessionStatus.ACTIVE);
    assertThat(created.createdAt()).isEqualTo(TestClock.START);
  }

  @Test
  @DisplayName("Saving a run for an existing session leaves the session's fields alone")
  void savingARunKeepsTheSession() {
    String session = id("s");
    Session before = store.sessions().save(SessionWrite.of(session).withStatus(SessionStatus.PAUSED)
        .withMetadata("k", "v"));

    runs().save(RunWrite.of("run-1", session).withStatus(RunStatus.RUNNING));

    Session after = store.sessions().find(session).orElseThrow();
    assertThat(after.status()).isEqualTo(SessionStatus.PAUSED);
    assertThat(after.metadata()).isEqualTo(before.metadata());
  }
}
