package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.ModelCall;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Run;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Session;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.UnsupportedCapabilityException;
import dev.sessionstore.spi.StoredValues;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The absent side of every optional capability ({@link Capability}): a store that does not declare one refuses it
 * and never does half of it. Its accessor, every operation that needs it and every step holding a member that needs
 * it fail with {@link UnsupportedCapabilityException} naming the capability, and nothing is stored: a step is
 * refused whole, its session write, run and events included. Each test runs only when its capability is absent (a
 * declared one is verified by its own group), so together with those groups both sides of every capability are
 * checked, as Guava's testlib pairs a feature's testers with its absent-feature testers. The consistency of what a
 * store declares is checked on every store.
 *
 * <p>If this fails, check: that the store is behind {@code dev.sessionstore.spi.ValidatingSessionStore} (it refuses
 * all of this before your adapter is called, from the capabilities your adapter declares); that an aggregate's
 * accessor throws rather than returning {@code null} or an object that ignores its calls; and that a step is refused
 * before anything of it is written, not after its events.
 */
public abstract class CapabilityAbsenceContract extends Contract {

  /** A wait no refused read may reach: a refusal is immediate. */
  private static final Duration LONG_WAIT = Duration.ofMinutes(2);
  /** How long the kit gives a refused waiting read to throw. */
  private static final long REFUSAL_BOUND_SECONDS = 30;

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected CapabilityAbsenceContract(SessionStoreConformance kit) {
    super(kit);
  }

  /** Everything the required parts show of one session, to compare before and after a refusal. */
  private record Snapshot(Optional<Session> session, List<Event> events, List<Run> runs) {
  }

  private Snapshot snapshot(String session) {
    return new Snapshot(store.sessions().find(session), Events.readAll(store.events(), session),
        store.runs().list(session));
  }

  private void assumeAbsent(Capability capability) {
    assumeFalse(store.supports(capability),
        () -> "store declares Capability." + capability + ": its own group verifies it");
  }

  /** A session with metadata {@code k=v}, a running run and two events: what a store with no capability holds. */
  private String seeded() {
    String session = id("session");
    store.sessions().save(SessionWrite.of(session).withMetadata("k", "v"));
    store.runs().save(RunWrite.of("r1", session).withStatus(RunStatus.RUNNING));
    store.events().appendAll(session, List.of(event(session + "-e1"), event(session + "-e2")));
    return session;
  }

  /** {@code call} fails with {@link UnsupportedCapabilityException} naming {@code capability}. */
  private static void refused(String what, Capability capability, ThrowingCallable call) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).as("%s on a store without %s", what, capability)
        .isInstanceOf(UnsupportedCapabilityException.class);
    assertThat(((UnsupportedCapabilityException) thrown).capability()).as("capability named by the refusal of %s",
        what).isEqualTo(capability);
  }

  /** A member a test adds to a step of {@code session}. */
  private interface Member {
    Step.Builder add(Step.Builder step, String session);
  }

  /**
   * A step holding the required members (a metadata write, a run, an event) and what {@code member} adds is refused
   * whole, naming {@code capability}: on a session the store holds (left exactly as it was) and on a new one (not
   * created).
   */
  private void stepRefusedWhole(Capability capability, String what, Member member) {
    String held = seeded();
    Snapshot before = snapshot(held);
    refused("a step of a held session with " + what, capability, () -> store.commit(member.add(Step.builder(held)
        .mergeMetadata(Map.of("k", "changed", "added", "1"))
        .run(RunWrite.of("r2", held).withStatus(RunStatus.RUNNING))
        .event(event(held + "-e3")), held).build()));
    assertThat(snapshot(held)).as("session %s after its refused step with %s", held, what).isEqualTo(before);

    String fresh = id("fresh");
    refused("a step of a new session with " + what, capability, () -> store.commit(member.add(Step.builder(fresh)
        .mergeMetadata(Map.of("k", "v"))
        .run(RunWrite.of("r1", fresh))
        .events(List.of(event(fresh + "-e1"), event(fresh + "-e2"))), fresh).build()));
    assertThat(snapshot(fresh)).as("new session %s after its refused step with %s", fresh, what)
        .isEqualTo(new Snapshot(Optional.empty(), List.of(), List.of()));
  }

  @Test
  @Tag("required")
  @DisplayName("What a store declares holds together: capabilities() answers the same each time, supports() agrees "
      + "with it, and a capability that qualifies another comes with it")
  void declaredCapabilitiesAreConsistent() {
    EnumSet<Capability> declared = store.capabilities().isEmpty() ? EnumSet.noneOf(Capability.class)
        : EnumSet.copyOf(store.capabilities());

    assertThat(store.capabilities()).as("capabilities() asked again").containsExactlyInAnyOrderElementsOf(declared);
    for (Capability capability : Capability.values()) {
      assertThat(store.supports(capability)).as("supports(%s)", capability)
          .isEqualTo(declared.contains(capability));
    }
    Map<Capability, Capability> needs = Map.of(
        Capability.DEADLINES, Capability.TOOL_CALLS,
        Capability.DURABLE_DEADLINES, Capability.DEADLINES,
        Capability.CROSS_PROCESS_WAKEUP, Capability.WAITING_READS);
    needs.forEach((capability, needed) -> {
      if (declared.contains(capability)) {
        assertThat(declared).as("capabilities of a store declaring %s, which needs %s", capability, needed)
            .contains(needed);
      }
    });
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Without TOOL_CALLS: toolCalls() is refused, and a step registering, resolving or timing a call is "
      + "refused whole")
  void withoutToolCalls() {
    assumeAbsent(Capability.TOOL_CALLS);
    refused("toolCalls()", Capability.TOOL_CALLS, () -> store.toolCalls());
    stepRefusedWhole(Capability.TOOL_CALLS, "a tool call registered",
        (step, session) -> step.registerToolCall(ToolCallWrite.of("c1", session, "approve")));
    stepRefusedWhole(Capability.TOOL_CALLS, "a resolution",
        (step, session) -> step.resolve("c1", ToolCallStatus.COMPLETED, json("{}")));
    stepRefusedWhole(Capability.TOOL_CALLS, "a deadline cancelled", (step, session) -> step.cancelDeadline("c1"));
  }

  @Test
  @Tag("guarantee-10")
  @DisplayName("Without DEADLINES: a call saved with a deadline, expireAt, expireAfter, cancelDeadline and a step "
      + "setting a deadline are refused, and the call keeps no deadline")
  void withoutDeadlines() {
    assumeAbsent(Capability.DEADLINES);
    assumeTrue(store.supports(Capability.TOOL_CALLS),
        "store does not declare Capability.TOOL_CALLS: withoutToolCalls verifies the refusal of calls");
    String session = seeded();
    String missing = id("call");
    refused("save of a call with a deadline", Capability.DEADLINES, () -> store.toolCalls().save(
        ToolCallWrite.of(missing, session, "approve").withDeadline(clock.instant().plusSeconds(60))));
    assertThat(store.toolCalls().find(session, missing)).as("call %s after its refused save", missing).isEmpty();

    String call = id("call");
    store.toolCalls().save(ToolCallWrite.of(call, session, "approve"));
    refused("expireAt", Capability.DEADLINES,
        () -> store.toolCalls().expireAt(session, call, clock.instant().plusSeconds(60)));
    refused("expireAfter", Capability.DEADLINES,
        () -> store.toolCalls().expireAfter(session, call, Duration.ofSeconds(60)));
    refused("cancelDeadline", Capability.DEADLINES, () -> store.toolCalls().cancelDeadline(session, call));
    assertThat(store.toolCalls().find(session, call).map(stored -> Optional.ofNullable(stored.deadline())))
        .as("deadline of call %s after the refused calls", call).contains(Optional.empty());

    stepRefusedWhole(Capability.DEADLINES, "a call registered with a deadline",
        (step, held) -> step.registerToolCall(ToolCallWrite.of("c2", held, "approve")
            .withDeadline(clock.instant().plusSeconds(60))));
    stepRefusedWhole(Capability.DEADLINES, "a deadline set",
        (step, held) -> step.expireAt(call, clock.instant().plusSeconds(60)));
  }

  @Test
  @Tag("guarantee-9")
  @DisplayName("Without SUMMARIES: summaries() is refused, and a step storing a summary is refused whole")
  void withoutSummaries() {
    assumeAbsent(Capability.SUMMARIES);
    refused("summaries()", Capability.SUMMARIES, () -> store.summaries());
    stepRefusedWhole(Capability.SUMMARIES, "a summary", (step, session) -> step.summary(NewSummary.of(1, 1, json("{}"))));
  }

  @Test
  @DisplayName("Without CHECKPOINTS: checkpoints() is refused, and a step putting or deleting a checkpoint is "
      + "refused whole")
  void withoutCheckpoints() {
    assumeAbsent(Capability.CHECKPOINTS);
    refused("checkpoints()", Capability.CHECKPOINTS, () -> store.checkpoints());
    stepRefusedWhole(Capability.CHECKPOINTS, "a checkpoint put",
        (step, session) -> step.putCheckpoint("turn", new byte[] {1}));
    stepRefusedWhole(Capability.CHECKPOINTS, "a checkpoint deleted",
        (step, session) -> step.deleteCheckpoint("turn"));
  }

  @Test
  @DisplayName("Without MODEL_CALL_AUDIT: modelCalls() is refused, and a step recording a model call is refused "
      + "whole")
  void withoutModelCallAudit() {
    assumeAbsent(Capability.MODEL_CALL_AUDIT);
    refused("modelCalls()", Capability.MODEL_CALL_AUDIT, () -> store.modelCalls());
    stepRefusedWhole(Capability.MODEL_CALL_AUDIT, "a model call",
        (step, session) -> step.modelCall(NewModelCall.of(1, "model-a", json("{}"))));
  }

  @Test
  @DisplayName("Without ARCHIVES: archives() is refused")
  void withoutArchives() {
    assumeAbsent(Capability.ARCHIVES);
    refused("archives()", Capability.ARCHIVES, () -> store.archives());
  }

  @Test
  @DisplayName("With ARCHIVES, an archive holding what the store lacks (tool calls, a deadline, summaries, "
      + "checkpoints, model-call rows, a cut log) is refused naming the capability, and nothing is imported")
  void anArchiveHoldingWhatTheStoreLacksIsRefused() {
    assumeTrue(store.supports(Capability.ARCHIVES),
        "store does not declare Capability.ARCHIVES: withoutArchives verifies its refusal");
    String session = seeded();
    SessionArchive exported = Lookups.present(store.archives().export(session), "archive of %s", session);
    store.sessions().delete(session);
    Instant now = clock.instant();
    Map<Capability, SessionArchive> holding = new LinkedHashMap<>();
    holding.put(Capability.TOOL_CALLS, exported.withToolCalls(List.of(pendingCall(session, null, now))));
    if (store.supports(Capability.TOOL_CALLS)) {
      holding.put(Capability.DEADLINES,
          exported.withToolCalls(List.of(pendingCall(session, now.plusSeconds(60), now))));
    }
    holding.put(Capability.SUMMARIES,
        exported.withSummaries(List.of(new Summary(session, 1, 2, json("{}"), 1, now))));
    holding.put(Capability.CHECKPOINTS, exported.withCheckpoints(
        List.of(new Checkpoint(CheckpointKey.of(session, "turn"), new byte[] {1}, now))));
    holding.put(Capability.MODEL_CALL_AUDIT, exported.withModelCalls(
        List.of(new ModelCall(session, 1, "model-a", json("{}"), json("{}"), now))));
    holding.put(Capability.RETENTION,
        exported.withEvents(exported.events().subList(1, exported.events().size())).withCutSeq(1));
    holding.keySet().removeIf(store::supports);
    assumeFalse(holding.isEmpty(), "store declares everything an archive can hold");

    holding.forEach((capability, archive) -> {
      refused("import of an archive holding what needs " + capability, capability,
          () -> store.archives().importSession(archive));
      assertThat(store.sessions().find(session)).as("session %s after the refused import needing %s", session,
          capability).isEmpty();
    });
  }

  private static ToolCall pendingCall(String session, Instant deadline, Instant now) {
    return new ToolCall("c1", session, null, null, "approve", json("{}"), ToolCallStatus.PENDING, null, deadline,
        now, now);
  }

  @Test
  @DisplayName("Without RETENTION: retention() is refused")
  void withoutRetention() {
    assumeAbsent(Capability.RETENTION);
    refused("retention()", Capability.RETENTION, () -> store.retention());
  }

  @Test
  @Tag("guarantee-11")
  @DisplayName("Without FORKS: both forks are refused and no session is created")
  void withoutForks() {
    assumeAbsent(Capability.FORKS);
    String parent = seeded();
    Snapshot before = snapshot(parent);
    String named = id("fork");

    refused("fork(parent, 1)", Capability.FORKS, () -> store.sessions().fork(parent, 1));
    refused("fork(parent, 1, id)", Capability.FORKS, () -> store.sessions().fork(parent, 1, named));

    assertThat(store.sessions().find(named)).as("session %s named by the refused fork", named).isEmpty();
    assertThat(store.sessions().list(SessionQuery.all()).items()).extracting(Session::id)
        .as("sessions after the refused forks").containsExactly(parent);
    assertThat(snapshot(parent)).as("parent %s after the refused forks", parent).isEqualTo(before);
  }

  @Test
  @Tag("guarantee-12")
  @DisplayName("Without TRUNCATION: truncate is refused with the log unchanged, and a step with a cut is refused "
      + "whole")
  void withoutTruncation() {
    assumeAbsent(Capability.TRUNCATION);
    String session = seeded();
    Snapshot before = snapshot(session);

    refused("truncate", Capability.TRUNCATION, () -> store.events().truncate(session, 1));

    assertThat(snapshot(session)).as("session %s after the refused truncate", session).isEqualTo(before);
    stepRefusedWhole(Capability.TRUNCATION, "a cut", (step, held) -> step.truncateFrom(1));
  }

  @Test
  @Tag("guarantee-8")
  @DisplayName("Without WAITING_READS: await is refused at once, not after its timeout")
  void withoutWaitingReads() throws Exception {
    assumeAbsent(Capability.WAITING_READS);
    String session = seeded();

    CompletableFuture<Throwable> wait = CompletableFuture.supplyAsync(
        () -> catchThrowable(() -> store.events().await(session, EventQuery.all().after(2), LONG_WAIT)));
    Throwable thrown = wait.get(REFUSAL_BOUND_SECONDS, TimeUnit.SECONDS);

    assertThat(thrown).as("await on a store without WAITING_READS").isInstanceOf(UnsupportedCapabilityException.class);
    assertThat(((UnsupportedCapabilityException) thrown).capability()).as("capability named by the refusal of await")
        .isEqualTo(Capability.WAITING_READS);
  }

  @Test
  @DisplayName("Without TENANTS: a session write or step giving a tenant, a listing or a search by tenant and "
      + "deleteByTenant are refused, and nothing is stored or deleted")
  void withoutTenants() {
    assumeAbsent(Capability.TENANTS);
    String session = seeded();
    Snapshot before = snapshot(session);
    String tenanted = id("tenanted");

    refused("save with a tenant", Capability.TENANTS,
        () -> store.sessions().save(SessionWrite.of(tenanted).withTenant("tenant-a")));
    refused("save of a held session with a tenant", Capability.TENANTS,
        () -> store.sessions().save(SessionWrite.of(session).withTenant("tenant-a")));
    refused("list by tenant", Capability.TENANTS,
        () -> store.sessions().list(SessionQuery.all().tenant("tenant-a")));
    refused("deleteByTenant", Capability.TENANTS, () -> store.sessions().deleteByTenant("tenant-a"));
    if (store.supports(Capability.SEARCH)) {
      refused("search by tenant", Capability.TENANTS,
          () -> store.search().find(SearchQuery.of("anything").tenant("tenant-a")));
    }

    assertThat(store.sessions().find(tenanted)).as("session %s after its refused save", tenanted).isEmpty();
    assertThat(snapshot(session)).as("session %s after the refused calls", session).isEqualTo(before);
    stepRefusedWhole(Capability.TENANTS, "a tenant",
        (step, held) -> step.session(SessionWrite.of(held).withTenant("tenant-a")));
  }

  @Test
  @Tag("guarantee-20")
  @DisplayName("Without WRITER_FENCING: claim and currentClaim are refused, and a fenced step is refused whole")
  void withoutWriterFencing() {
    assumeAbsent(Capability.WRITER_FENCING);
    String session = seeded();

    refused("claim", Capability.WRITER_FENCING, () -> store.sessions().claim(session, "owner-a"));
    refused("currentClaim", Capability.WRITER_FENCING, () -> store.sessions().currentClaim(session));
    stepRefusedWhole(Capability.WRITER_FENCING, "a fence", (step, held) -> step.fence(1));
  }

  @Test
  @Tag("guarantee-21")
  @DisplayName("Without SEARCH: search() is refused, and nothing the refused call was given is stored")
  void withoutSearch() {
    assumeAbsent(Capability.SEARCH);
    String session = seeded();
    Snapshot before = snapshot(session);

    refused("search()", Capability.SEARCH, () -> store.search());

    assertThat(snapshot(session)).as("session %s after the refused search", session).isEqualTo(before);
  }

  @Test
  @DisplayName("Without STORED_VALUE_REWRITE: unwrap hands out no StoredValues")
  void withoutStoredValueRewrite() {
    assumeAbsent(Capability.STORED_VALUE_REWRITE);

    assertThat(store.unwrap(StoredValues.class)).as("unwrap(StoredValues.class)").isEmpty();
  }
}
