package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Events.ids;
import static dev.sessionstore.conformance.Events.readAll;
import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sessionstore.Capability;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.ConflictException;
import dev.sessionstore.Event;
import dev.sessionstore.FencedWriterException;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.WriterClaim;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Writer fencing ({@link Capability#WRITER_FENCING}, guarantee 20 of docs/guarantees.md): a runtime that moves a
 * session to another node claims it there
 * ({@link dev.sessionstore.Sessions#claim}) and the old owner's later steps, which carry its older token
 * ({@link Step.Builder#fence}), store nothing and fail with {@link FencedWriterException} naming the new owner. The
 * group checks that tokens only grow (sequentially, under racing claimants, across two instances on one backend,
 * after a deletion and after the claiming instance is gone), that a stale or never-issued token stores nothing, that
 * the current owner and unfenced writers go on writing, that every kind of write a step can make is refused to a
 * superseded owner (a metadata merge, a run, a resolution, a checkpoint, a cut, not only events), that a fork starts
 * unclaimed, and that the check is atomic with the write: under claims
 * racing writes, the tokens of the stored events never go down in log order, and after a burst of claims only the
 * last token writes.
 *
 * <p>Tests that need two instances on one backend run when the adapter returns a peer
 * ({@link SessionStoreConformance#newPeerStore}) and are skipped otherwise.
 *
 * <p>If this fails, check: that a claim moves the token forward in one atomic read-modify-write (an upsert, a
 * compare-and-set, a lock), never from a value read before, a clock or a per-instance counter; that the token state
 * lives in the backend shared by every instance and survives the session's deletion; that the step compares its token
 * with the current one inside its own transaction or lock, after taking the lock the write takes, and that a claim
 * cannot slip between that check and the write (a claim takes the same lock, or a row lock the check holds); that a
 * rejected step rolls back everything it wrote before the check failed (an implicit session, an upsert); that the
 * check runs for every step carrying a token, not only in the path that appends events; that a fork copies no claim
 * of its parent; and that
 * the exception carries the current token and owner as read in that transaction.
 *
 * <p>Every test of the group is tagged {@code writer-fencing}, so that an adapter's build can run the group alone
 * ({@code -Dgroups=writer-fencing}).
 */
@Tag("guarantee-20")
@Tag("writer-fencing")
public abstract class WriterFencingContract extends Contract {

  private static final Duration BOUND = Duration.ofSeconds(60);

  private SessionStore openedPeer;

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected WriterFencingContract(SessionStoreConformance kit) {
    super(kit);
  }

  @Override
  protected Set<Capability> requiredCapabilities() {
    return Set.of(Capability.WRITER_FENCING);
  }

  @AfterEach
  final void closePeer() {
    if (openedPeer != null) {
      openedPeer.close();
    }
  }

  /** The adapter's second instance on the store's backend; the test is skipped when the adapter has none. */
  private SessionStore peer() {
    openedPeer = peerStore();
    assumeTrue(openedPeer != null, "the adapter has no second instance on a shared backend (newPeerStore returns"
        + " null)");
    assertThat(openedPeer).as("newPeerStore must return a second instance, not the store it was given")
        .isNotSameAs(store);
    assertThat(openedPeer.supports(Capability.WRITER_FENCING))
        .as("the peer store declares Capability.WRITER_FENCING like the first").isTrue();
    return openedPeer;
  }

  /** A step of {@code session} carrying {@code token} and appending one event {@code eventId}. */
  private static Step fenced(String session, long token, String eventId) {
    return Step.builder(session).fence(token).event(event(eventId)).build();
  }

  /** Commits {@code step} through {@code target} and expects it refused as fenced, returning the error. */
  private static FencedWriterException refused(SessionStore target, Step step, String what) {
    FencedWriterException refused = catchThrowableOfType(() -> target.commit(step), FencedWriterException.class);
    assertThat(refused).as("%s: FencedWriterException", what).isNotNull();
    return refused;
  }

  // ---------------------------------------------------------------- tokens

  @Test
  @DisplayName("Each claim returns a greater token than the one before, also a repeated claim by the current owner;"
      + " the current claim names the last claimant; a claim does not create the session")
  void claimsGrowTheToken() {
    String session = id("s");

    WriterClaim first = store.sessions().claim(session, "node-a");
    WriterClaim second = store.sessions().claim(session, "node-b");
    WriterClaim again = store.sessions().claim(session, "node-b");

    assertThat(first).as("first claim").isEqualTo(new WriterClaim(session, "node-a", first.token()));
    assertThat(second.token()).as("token of the second claim (the first was %d)", first.token())
        .isGreaterThan(first.token());
    assertThat(again.token()).as("token of a repeated claim by the current owner (its previous was %d)",
        second.token()).isGreaterThan(second.token());
    assertThat(store.sessions().currentClaim(session)).as("current claim of %s", session).contains(again);
    assertThat(store.sessions().currentClaim(id("never"))).as("current claim of a session id never claimed")
        .isEmpty();
    assertThat(store.sessions().find(session)).as("session %s after claims only", session).isEmpty();
    assertThat(store.sessions().claim(id("other"), "node-a").token()).as("token of another session's first claim")
        .isPositive();
  }

  @Test
  @DisplayName("16 threads claiming one session at once get 16 distinct tokens; the current claim holds the greatest,"
      + " and when all 16 then write with their tokens at once only the greatest is stored")
  void racingClaimantsGetDistinctTokensAndOnlyTheLastWrites() {
    String session = id("s");
    int threads = 16;

    List<WriterClaim> claims = Race.run(threads, BOUND, t -> store.sessions().claim(session, "node-" + t));

    List<Long> tokens = claims.stream().map(WriterClaim::token).sorted().toList();
    assertThat(tokens).as("tokens returned to %d racing claimants", threads).doesNotHaveDuplicates();
    WriterClaim last = claims.stream().filter(claim -> claim.token() == tokens.get(threads - 1)).findFirst()
        .orElseThrow();
    assertThat(store.sessions().currentClaim(session)).as("current claim after the race").contains(last);

    List<Boolean> stored = Race.run(threads, BOUND, t -> {
      try {
        return store.commit(fenced(session, claims.get(t).token(), "w-" + t)).isCommitted();
      } catch (FencedWriterException superseded) {
        return false;
      }
    });

    List<String> winners = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      if (stored.get(t)) {
        winners.add("w-" + t);
      }
    }
    String lastWriter = "w-" + claims.indexOf(last);
    assertThat(winners).as("writers whose step was stored (the last claimant is %s, token %d)", lastWriter,
        last.token()).containsExactly(lastWriter);
    assertThat(ids(readAll(store.events(), session))).as("log of %s", session).containsExactly(lastWriter);
  }

  // ---------------------------------------------------------------- stale writers

  @Test
  @DisplayName("A step carrying a superseded token stores nothing (events, session, run, checkpoint) and fails with"
      + " FencedWriterException naming its token, the current token and the new owner")
  void staleTokenStepStoresNothingAndNamesTheWinner() {
    String session = id("s");
    WriterClaim old = store.sessions().claim(session, "node-a");
    assertThat(store.commit(fenced(session, old.token(), "e1")).isCommitted()).as("step of the owner").isTrue();
    WriterClaim winner = store.sessions().claim(session, "node-b");

    Step.Builder late = Step.builder(session).fence(old)
        .session(SessionWrite.of(session).withMetadata("late", "yes"))
        .run(RunWrite.of(id("run"), session).withStatus(RunStatus.RUNNING))
        .event(event("e2"));
    if (store.supports(Capability.CHECKPOINTS)) {
      late.putCheckpoint("turn", new byte[] {1});
    }
    FencedWriterException refused = refused(store, late.build(), "step of the superseded owner");

    assertThat(refused).as("a fenced writer is a conflict").isInstanceOf(ConflictException.class);
    assertThat(refused.sessionId()).as("session named by the error").isEqualTo(session);
    assertThat(refused.presentedToken()).as("token presented").isEqualTo(old.token());
    assertThat(refused.currentToken()).as("current token named by the error").isEqualTo(winner.token());
    assertThat(refused.currentOwner()).as("owner named by the error").contains("node-b");
    assertThat(refused.getMessage()).as("message").contains("node-b");
    assertThat(ids(readAll(store.events(), session))).as("log after the refused step").containsExactly("e1");
    assertThat(present(store.sessions().find(session), "session %s", session).metadata())
        .as("metadata after the refused step").doesNotContainKey("late");
    assertThat(store.runs().list(session)).as("runs after the refused step").isEmpty();
    if (store.supports(Capability.CHECKPOINTS)) {
      assertThat(store.checkpoints().get(CheckpointKey.of(session, "turn"))).as("checkpoint after the refused step").isEmpty();
    }
  }

  @Test
  @DisplayName("A superseded owner is refused for every kind of write a step can make without events (a metadata"
      + " merge, a run, a resolution, a checkpoint, a cut), each storing nothing")
  void everyKindOfWriteOfASupersededOwnerIsRefused() {
    String session = id("s");
    WriterClaim old = store.sessions().claim(session, "node-a");
    Step.Builder seed = Step.builder(session).fence(old).events(List.of(event("e1"), event("e2")))
        .run(RunWrite.of("run-1", session).withStatus(RunStatus.RUNNING));
    if (store.supports(Capability.TOOL_CALLS)) {
      seed.registerToolCall(ToolCallWrite.of("call-1", session, "approve").withRequestEventId("e1"));
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      seed.putCheckpoint("turn", new byte[] {1});
    }
    assertThat(store.commit(seed.build()).isCommitted()).as("step of the owner").isTrue();
    store.sessions().claim(session, "node-b");

    Map<String, Step> writes = new LinkedHashMap<>();
    writes.put("a metadata merge", Step.builder(session).fence(old).mergeMetadata(Map.of("late", "yes")).build());
    writes.put("a run", Step.builder(session).fence(old).run(RunWrite.of("run-2", session)).build());
    if (store.supports(Capability.TOOL_CALLS)) {
      writes.put("a resolution", Step.builder(session).fence(old)
          .resolve("call-1", ToolCallStatus.COMPLETED, json("{\"late\":true}")).build());
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      writes.put("a checkpoint", Step.builder(session).fence(old).putCheckpoint("turn", new byte[] {2}).build());
    }
    if (store.supports(Capability.TRUNCATION)) {
      writes.put("a cut", Step.builder(session).fence(old).truncateFrom(2).build());
    }
    List<Object> before = stateOf(session);
    writes.forEach((what, step) -> {
      refused(store, step, "step of the superseded owner holding only " + what);
      assertThat(stateOf(session)).as("session, log, runs, call and checkpoint after the refused step holding only %s",
          what).isEqualTo(before);
    });
  }

  /** Everything of {@code session} a fenced step without events could change, as read through the store. */
  private List<Object> stateOf(String session) {
    List<Object> state = new ArrayList<>();
    state.add(store.sessions().find(session));
    state.add(readAll(store.events(), session));
    state.add(store.runs().list(session));
    if (store.supports(Capability.TOOL_CALLS)) {
      state.add(store.toolCalls().find(session, "call-1"));
    }
    if (store.supports(Capability.CHECKPOINTS)) {
      state.add(store.checkpoints().get(CheckpointKey.of(session, "turn")));
    }
    return state;
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("A fork starts unclaimed: the parent owner's token does not write to it, the fork's own claim does,"
      + " and the parent's owner goes on writing to the parent")
  void aForkStartsUnclaimed() {
    assumeDeclared(Capability.FORKS);
    String parent = id("s");
    WriterClaim owner = store.sessions().claim(parent, "node-a");
    store.commit(Step.builder(parent).fence(owner).events(List.of(event("e1"), event("e2"))).build());
    String fork = store.sessions().fork(parent, 2).id();

    assertThat(store.sessions().currentClaim(fork)).as("current claim of a new fork").isEmpty();
    FencedWriterException refused = refused(store, fenced(fork, owner.token(), "f3"),
        "step on the fork with the parent owner's token");
    assertThat(refused.currentToken()).as("current token of the fork named by the error").isZero();
    assertThat(store.events().lastSeq(fork)).as("lastSeq of the fork after the refused step").isEqualTo(2);

    WriterClaim forkOwner = store.sessions().claim(fork, "node-b");
    assertThat(store.commit(fenced(fork, forkOwner.token(), "f3")).isCommitted()).as("step of the fork's owner")
        .isTrue();
    assertThat(store.commit(fenced(parent, owner.token(), "e3")).isCommitted())
        .as("step of the parent's owner after the fork was claimed").isTrue();
    assertThat(ids(readAll(store.events(), fork))).as("log of the fork").containsExactly("e1", "e2", "f3");
  }

  @Test
  @DisplayName("A replay of an already stored step with a superseded token is refused too; the new owner's step and"
      + " steps without a token go on being stored")
  void newOwnerAndUnfencedWritersWrite() {
    String session = id("s");
    WriterClaim old = store.sessions().claim(session, "node-a");
    Step first = fenced(session, old.token(), "e1");
    store.commit(first);
    WriterClaim winner = store.sessions().claim(session, "node-b");

    refused(store, first, "replay of the old owner's stored step");
    StepOutcome outcome = store.commit(Step.builder(session).fence(winner).event(event("e2")).expectLastSeq(1)
        .build());
    Event unfenced = store.events().append(session, event("e3"));

    assertThat(outcome.isCommitted()).as("step of the new owner").isTrue();
    assertThat(unfenced.seq()).as("seq of an append without a token after the claims").isEqualTo(3);
    assertThat(ids(readAll(store.events(), session))).as("log").containsExactly("e1", "e2", "e3");
  }

  @Test
  @DisplayName("A token never issued for the session (none yet, or above the current one) is refused and creates"
      + " nothing; the error says the session was never claimed")
  void neverIssuedTokensAreRefused() {
    String unclaimed = id("s");
    FencedWriterException never = refused(store, fenced(unclaimed, 1, "e1"), "step on a session never claimed");
    assertThat(never.currentToken()).as("current token of a session never claimed").isZero();
    assertThat(never.currentOwner()).as("owner of a session never claimed").isEmpty();
    assertThat(store.sessions().find(unclaimed)).as("session %s after the refused step", unclaimed).isEmpty();

    String claimed = id("s");
    WriterClaim claim = store.sessions().claim(claimed, "node-a");
    refused(store, fenced(claimed, claim.token() + 1, "e1"), "step with a token above the current one");
    assertThat(store.sessions().find(claimed)).as("session %s after the refused step", claimed).isEmpty();
    assertThat(store.events().lastSeq(claimed)).as("lastSeq of %s", claimed).isZero();
  }

  @Test
  @DisplayName("Deleting a session keeps its fencing: the next claim's token is greater than every earlier one, and a"
      + " step carrying a token from before the deletion is refused without recreating the session")
  void deletionKeepsTheCounter() {
    String session = id("s");
    WriterClaim old = store.sessions().claim(session, "node-a");
    store.commit(fenced(session, old.token(), "e1"));
    assertThat(store.sessions().delete(session)).as("delete %s", session).isTrue();

    WriterClaim after = store.sessions().claim(session, "node-b");

    assertThat(after.token()).as("token of the first claim after the deletion (the last before was %d)", old.token())
        .isGreaterThan(old.token());
    refused(store, fenced(session, old.token(), "e2"), "step with a token from before the deletion");
    assertThat(store.sessions().find(session)).as("session %s after the refused step", session).isEmpty();
    assertThat(store.commit(fenced(session, after.token(), "e3")).isCommitted()).as("step of the new owner")
        .isTrue();
    assertThat(ids(readAll(store.events(), session))).as("log of the recreated session").containsExactly("e3");
  }

  @Test
  @DisplayName("8 threads each claiming and then writing 25 times: the tokens of the stored events never go down in"
      + " log order, and every refusal names a token greater than the one refused")
  void claimsRacingWritesNeverLetAnOlderTokenWriteAfterANewerOne() {
    String session = id("s");
    int threads = 8;
    int rounds = 25;

    List<List<FencedWriterException>> refusals = Race.run(threads, BOUND, t -> {
      List<FencedWriterException> mine = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        WriterClaim claim = store.sessions().claim(session, "node-" + t);
        try {
          store.commit(fenced(session, claim.token(), "token-" + claim.token()));
        } catch (FencedWriterException superseded) {
          mine.add(superseded);
        }
      }
      return mine;
    });

    List<Long> storedTokens = readAll(store.events(), session).stream()
        .map(event -> Long.parseLong(event.id().substring("token-".length()))).toList();
    assertThat(storedTokens).as("tokens of the stored events, in log order (a decrease means a superseded writer"
        + " was stored after its successor)").isNotEmpty().isSorted();
    refusals.stream().flatMap(List::stream).forEach(refused ->
        assertThat(refused.currentToken()).as("current token named when refusing token %d",
            refused.presentedToken()).isGreaterThan(refused.presentedToken()));
  }

  @Test
  @DisplayName("Claiming and reading the current claim reject an invalid session id or owner id, naming the "
      + "parameter, and store no claim")
  void claimRejectsBadArguments() {
    assertThatThrownBy(() -> store.sessions().claim(null, "node-a")).as("claim(null, owner)")
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("sessionId"));
    assertThatThrownBy(() -> store.sessions().claim(id("s"), "")).as("claim(session, \"\")")
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("ownerId"));
    assertThatThrownBy(() -> store.sessions().claim(" ", "node-a")).as("claim(\" \", owner)")
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("sessionId"));
    assertThatThrownBy(() -> store.sessions().claim(id("s"), null)).as("claim(session, null)")
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("ownerId"));
    assertThatThrownBy(() -> store.sessions().currentClaim(null)).as("currentClaim(null)")
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("sessionId"));
    assertThatThrownBy(() -> store.sessions().currentClaim("")).as("currentClaim(\"\")")
        .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("sessionId"));
    assertThat(store.sessions().currentClaim(id("s"))).as("claim of a session no claim or rejected claim made")
        .isEmpty();
  }

  // ---------------------------------------------------------------- two instances

  @Test
  @DisplayName("Across two instances on one backend: a claim through the second fences the first's owner, each"
      + " instance reads the other's claims, and claimants racing through both get distinct tokens")
  void claimsCrossInstances() {
    SessionStore second = peer();
    String session = id("s");
    WriterClaim old = store.sessions().claim(session, "node-a");
    store.commit(fenced(session, old.token(), "e1"));

    WriterClaim winner = second.sessions().claim(session, "node-b");

    assertThat(winner.token()).as("token of a claim through the second instance after one through the first (%d)",
        old.token()).isGreaterThan(old.token());
    assertThat(store.sessions().currentClaim(session)).as("current claim read through the first instance")
        .contains(winner);
    FencedWriterException refused = refused(store, fenced(session, old.token(), "e2"),
        "step of the first instance's superseded owner");
    assertThat(refused.currentOwner()).as("owner named by the first instance").contains("node-b");
    assertThat(second.commit(fenced(session, winner.token(), "e3")).isCommitted())
        .as("step of the new owner through the second instance").isTrue();
    assertThat(ids(readAll(store.events(), session))).as("log").containsExactly("e1", "e3");

    String raced = id("s");
    List<WriterClaim> claims = Race.run(8, BOUND, t -> (t % 2 == 0 ? store : second).sessions()
        .claim(raced, "node-" + t));
    assertThat(claims.stream().map(WriterClaim::token).toList())
        .as("tokens of 8 claimants racing through both instances").doesNotHaveDuplicates();
  }

  @Test
  @DisplayName("Fencing outlives the instance that claimed: after it is closed, the second instance's claim gets a"
      + " greater token and refuses the old token")
  void fencingSurvivesTheClaimingInstance() {
    SessionStore second = peer();
    String session = id("s");
    WriterClaim old = store.sessions().claim(session, "node-a");
    store.commit(fenced(session, old.token(), "e1"));
    store.close();

    assertThat(second.sessions().currentClaim(session)).as("current claim read after the claiming instance closed")
        .contains(old);
    WriterClaim winner = second.sessions().claim(session, "node-b");
    assertThat(winner.token()).as("token of a claim after the claiming instance closed (it gave %d)", old.token())
        .isGreaterThan(old.token());
    refused(second, fenced(session, old.token(), "e2"), "step with the closed instance's token");
    assertThat(second.events().lastSeq(session)).as("lastSeq").isEqualTo(1);
    assertThat(second.sessions().find(session)).as("session %s read through the second instance", session)
        .isPresent();
  }
}
