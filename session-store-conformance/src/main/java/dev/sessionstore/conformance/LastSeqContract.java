package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Capability;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.StepResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The last seq where a runtime needs it: {@link Session#lastSeq()} on every session a store returns, the revival
 * read's {@code lastSeq} and {@link StepResult#lastSeq()}, each the seq {@code events().lastSeq} reports at that
 * moment, after appends, batches, steps, truncations and forks, and 0 for an unknown session or an empty log.
 *
 * <p>If this fails, check: that the session record is read together with its log's last seq (the JDBC session row's
 * {@code last_seq} column, the memory log's tail) on every path that returns one (find, find by name, list, save,
 * metadata merge, fork, step), and that the revival reads it in the same snapshot as its events; that a step's result
 * takes it from the log after the step (not from the step's last event, which a replay may have stored long ago, nor
 * from before a cut); and that a fork of a fork ends at its own fork point, not at its parent's.
 */
public abstract class LastSeqContract extends Contract {

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected LastSeqContract(SessionStoreConformance kit) {
    super(kit);
  }

  /** Asserts that every read of {@code sessionId} reports {@code expected} as its last seq. */
  private void assertLastSeq(String sessionId, long expected, String after) {
    assertThat(store.events().lastSeq(sessionId)).as("events().lastSeq after %s", after).isEqualTo(expected);
    assertThat(present(store.sessions().find(sessionId), "session " + sessionId).lastSeq())
        .as("Session.lastSeq from find after %s", after).isEqualTo(expected);
    assertThat(store.sessions().list(SessionQuery.all()).items()).filteredOn(session -> session.id().equals(sessionId))
        .extracting(Session::lastSeq).as("Session.lastSeq from list after %s", after).containsExactly(expected);
    if (store.supports(Capability.SUMMARIES)) {
      assertThat(store.summaries().revive(sessionId).lastSeq()).as("Revival.lastSeq after %s", after)
          .isEqualTo(expected);
    }
  }

  @Test
  @Tag("guarantee-1")
  @DisplayName("A new session's last seq is 0, and an unknown session reads as 0 everywhere")
  void newAndUnknownSessionsAreAtZero() {
    String session = id("session");
    assertThat(store.sessions().save(SessionWrite.of(session)).lastSeq()).as("saved session").isZero();
    assertLastSeq(session, 0, "creating the session");
    assertThat(store.events().lastSeq(id("unknown"))).as("events().lastSeq of an unknown session").isZero();
    assertThat(store.sessions().find(id("unknown"))).as("find of an unknown session").isEmpty();
  }

  @Test
  @Tag("guarantee-1")
  @DisplayName("Appends and batches move the session's last seq; save and metadata merges return it")
  void appendsAndBatchesMoveTheLastSeq() {
    String session = id("session");
    store.sessions().save(SessionWrite.of(session).withName(id("name")));
    store.events().append(session, event("e1"));
    assertLastSeq(session, 1, "one append");
    store.events().appendAll(session, List.of(event("e2"), event("e3"), event("e4")));
    assertLastSeq(session, 4, "a batch of three");
    store.events().append(session, event("e2"));
    assertLastSeq(session, 4, "a replayed append");

    Session saved = store.sessions().save(SessionWrite.of(session).withMetadata("k", "v"));
    assertThat(saved.lastSeq()).as("Session.lastSeq returned by save").isEqualTo(4);
    assertThat(store.sessions().mergeMetadata(session, Map.of("k", "w")).lastSeq())
        .as("Session.lastSeq returned by mergeMetadata").isEqualTo(4);
    assertThat(present(store.sessions().findByName(saved.name()), "session by name").lastSeq())
        .as("Session.lastSeq from findByName").isEqualTo(4);
  }

  @Test
  @Tag("guarantee-16")
  @DisplayName("A committed step's result carries the last seq after it: with events, with a cut, with nothing new")
  void aStepResultCarriesTheLastSeq() {
    String session = id("session");
    StepResult first = store.commit(Step.builder(session).events(List.of(event("e1"), event("e2"), event("e3")))
        .build()).orElseThrow();
    assertThat(first.lastSeq()).as("StepResult.lastSeq after three events").isEqualTo(3);
    assertThat(first.session().lastSeq()).as("StepResult.session().lastSeq").isEqualTo(3);
    assertLastSeq(session, 3, "a step of three events");

    StepResult next = store.commit(Step.builder(session).expectLastSeq(first.lastSeq()).event(event("e4")).build())
        .orElseThrow();
    assertThat(next.lastSeq()).as("StepResult.lastSeq used as the next expected seq").isEqualTo(4);

    StepResult empty = store.commit(Step.builder(session).mergeMetadata(Map.of("k", "v")).build()).orElseThrow();
    assertThat(empty.lastSeq()).as("StepResult.lastSeq of a step without events").isEqualTo(4);

    if (store.supports(Capability.TRUNCATION)) {
      StepResult cut = store.commit(Step.builder(session).truncateFrom(2).event(event("e5")).build()).orElseThrow();
      assertThat(cut.lastSeq()).as("StepResult.lastSeq after a cut at 2 and one event").isEqualTo(2);
      assertLastSeq(session, 2, "a step cutting at 2 and appending one");
    }
  }

  @Test
  @Tag("guarantee-3")
  @Tag("guarantee-16")
  @DisplayName("A replayed step, and a step mixing new and replayed events, report the seq the log ends at, not the"
      + " seq of their last event")
  void aReplayedStepReportsTheLogsLastSeq() {
    String session = id("session");
    Step first = Step.builder(session).events(List.of(event("e1"), event("e2"))).build();
    store.commit(first).orElseThrow();
    store.events().append(session, event("e3"));

    StepResult replayed = store.commit(first).orElseThrow();
    assertThat(replayed.lastSeq()).as("StepResult.lastSeq of a step replayed after a later append").isEqualTo(3);

    StepResult mixed = store.commit(Step.builder(session).events(List.of(event("e4"), event("e2"))).build())
        .orElseThrow();
    assertThat(mixed.lastSeq()).as("StepResult.lastSeq of a step of a new event and a replayed one").isEqualTo(4);
    assertLastSeq(session, 4, "a step of a new event and a replayed one");
  }

  @Test
  @Tag("guarantee-12")
  @Tag("guarantee-16")
  @DisplayName("A step whose only member is a cut reports the seq before the cut as its last seq")
  void aCutAloneReportsTheLastSeqAfterTheCut() {
    assumeDeclared(Capability.TRUNCATION);
    String session = id("session");
    store.events().appendAll(session, List.of(event("e1"), event("e2"), event("e3"), event("e4")));

    StepResult cut = store.commit(Step.builder(session).truncateFrom(3).build()).orElseThrow();

    assertThat(cut.removed()).as("events the cut at 3 removed").isEqualTo(2);
    assertThat(cut.lastSeq()).as("StepResult.lastSeq of a step cutting at 3").isEqualTo(2);
    assertLastSeq(session, 2, "a step cutting at 3");
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("A truncation moves the session's last seq back")
  void aTruncationMovesTheLastSeqBack() {
    assumeDeclared(Capability.TRUNCATION);
    String session = id("session");
    store.events().appendAll(session, List.of(event("e1"), event("e2"), event("e3"), event("e4")));
    store.events().truncate(session, 3);
    assertLastSeq(session, 2, "truncating from 3");
    store.events().truncate(session, 1);
    assertLastSeq(session, 0, "truncating everything");
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork's last seq is its fork point, also for a fork of a fork made below the first fork point, and"
      + " parent and fork move apart from there")
  void aForkStartsAtItsForkPoint() {
    assumeDeclared(Capability.FORKS);
    String parent = id("session");
    store.events().appendAll(parent, List.of(event("e1"), event("e2"), event("e3"), event("e4")));
    Session fork = store.sessions().fork(parent, 2);
    assertThat(fork.lastSeq()).as("Session.lastSeq returned by fork").isEqualTo(2);
    assertLastSeq(fork.id(), 2, "forking at 2");
    assertLastSeq(parent, 4, "forking the parent at 2");

    store.events().append(fork.id(), event("f3"));
    assertLastSeq(fork.id(), 3, "appending to the fork");
    assertLastSeq(parent, 4, "appending to its fork");

    Session below = store.sessions().fork(fork.id(), 1);
    assertThat(below.lastSeq()).as("Session.lastSeq returned by a fork of the fork at 1, below its fork point 2")
        .isEqualTo(1);
    assertLastSeq(below.id(), 1, "forking the fork at 1");
  }
}
