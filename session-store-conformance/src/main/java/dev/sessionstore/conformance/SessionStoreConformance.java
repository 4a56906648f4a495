package dev.sessionstore.conformance;

import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.SessionStore;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The session-store conformance kit. An adapter is certified by one test class that extends this one and supplies a
 * fresh store:
 *
 * <pre>{@code
 * class MyStoreConformanceTest extends SessionStoreConformance {
 *   @Override
 *   protected SessionStore newStore(Clock clock) {
 *     return MyStore.builder().clock(clock).modelCallAudit(true).build();
 *   }
 * }
 * }</pre>
 *
 * <p>An adapter whose stores can share a backend with other processes (a database, a shared file) also overrides
 * {@link #newPeerStore}, returning a second instance on the same backend as a store from {@link #newStore}, built
 * as another process would build it:
 *
 * <pre>{@code
 *   @Override
 *   protected SessionStore newPeerStore(SessionStore first, Clock clock) {
 *     return MyStore.builder().dataSource(newPool()).schema(schemaOf(first)).clock(clock).build();
 *   }
 * }</pre>
 *
 * <p>The kit runs one {@code @Nested} group per aggregate or capability, tagged {@code required} (every store must
 * pass it) or {@code optional} (verified when the store declares the capability), and each test is tagged with the
 * guarantee of docs/guarantees.md it verifies ({@code guarantee-N}) where one applies. Groups for an optional
 * {@link dev.sessionstore.Capability} the store does not declare are reported as skipped, naming the capability;
 * a declared capability is verified in full, and a failure is a failure. The shared-backend group is skipped as a
 * whole only for a store with no peer that declares neither cross-process capability.
 *
 * <p>Each test gets its own store from {@link #newStore} and closes it afterwards; a test of the shared-backend group
 * also asks {@link #newPeerStore} for a second instance of that store and closes it afterwards too. Time-dependent
 * rules are driven by a {@link TestClock}, shared by both instances; only waiting-read timeouts and the concurrency
 * tests use real time.
 *
 * <p>A decorator's run over one more backend may run fewer groups, named by {@link KitGroups}; an adapter's own run
 * is the whole kit.
 */
@ExtendWith(GroupSelection.class)
public abstract class SessionStoreConformance {

  /**
   * Returns a new store that is empty, isolated from every other store this method returned (no shared sessions),
   * reads time from {@code clock}, and has every optional feature it supports enabled (the model-call audit in
   * particular).
   */
  protected abstract SessionStore newStore(Clock clock);

  /**
   * Returns a second, independent store instance on the same backend and namespace as {@code first} (a store this
   * kit got from {@link #newStore}), as another process would build it: its own connections, threads and caches,
   * nothing shared with {@code first} but the backend, reading time from {@code clock} (the clock {@code first}
   * was built with) and with the same optional features enabled. The kit closes it after the test, when
   * {@code first} may already be closed. Returns {@code null}, the default, when the adapter has no such notion (an
   * in-memory store).
   *
   * <p>The shared-backend group verifies with this pair what crosses instances: reads of each other's writes,
   * gapless seqs and single winners across instances, and the capabilities that claim other processes,
   * {@link dev.sessionstore.Capability#CROSS_PROCESS_WAKEUP} and
   * {@link dev.sessionstore.Capability#DURABLE_DEADLINES}. A store that declares either of those must override this
   * method: with {@code null} the claim cannot be verified, and the group fails.
   */
  protected SessionStore newPeerStore(SessionStore first, Clock clock) {
    return null;
  }

  /**
   * Returns a new store like {@link #newStore} that applies {@code policy} by itself every {@code interval}, as the
   * adapter's builder configures a retention schedule; {@code null}, the default, when the adapter has none (the
   * retention group then skips its schedule test, saying so). The kit closes it after the test.
   */
  protected SessionStore newRetainingStore(Clock clock, RetentionPolicy policy, Duration interval) {
    return null;
  }

  /** The tests of {@link StoredValuesContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Stored values: every value scanned once in complete pages; a compare-and-set rewrite reads back")
  public class StoredValues extends StoredValuesContract {
    StoredValues() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link RetentionContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Retention: idle sessions, old chapters and old audit rows removed; forks keep what they show")
  public class Retention extends RetentionContract {
    Retention() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link SessionsContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Sessions: upsert, lookup, metadata merge, listing")
  public class Sessions extends SessionsContract {
    Sessions() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link WordingContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Wording: the same failure worded the same by every adapter")
  public class Wording extends WordingContract {
    Wording() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link LastSeqContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Last seq: on sessions, revivals and step results, after every change of the log")
  public class LastSeq extends LastSeqContract {
    LastSeq() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link EventAppendContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Event log: sequencing, idempotency, batches, expected seq")
  public class EventAppends extends EventAppendContract {
    EventAppends() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link EventReadContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Event log: reads, filters and paging")
  public class EventReads extends EventReadContract {
    EventReads() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link WaitingReadContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Event log: waiting reads")
  public class WaitingReads extends WaitingReadContract {
    WaitingReads() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link ConcurrencyContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Concurrency: gapless seq and single winners under many threads")
  public class Concurrency extends ConcurrencyContract {
    Concurrency() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link RunsContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Runs and the active run")
  public class Runs extends RunsContract {
    Runs() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link StepContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Agent step: every member committed together or not at all")
  public class Steps extends StepContract {
    Steps() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link BadInputContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Bad input: typed errors, nothing written, store keeps serving")
  public class BadInput extends BadInputContract {
    BadInput() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link ArgumentRulesContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Argument rules: every operation of every aggregate rejects bad arguments, naming the parameter")
  public class ArgumentRules extends ArgumentRulesContract {
    ArgumentRules() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link PayloadContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Payloads: JSON documents stored exactly")
  public class Payloads extends PayloadContract {
    Payloads() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link ToolCallContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Tool calls: compare-and-set resolution")
  public class ToolCalls extends ToolCallContract {
    ToolCalls() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link ToolCallWaitContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Tool calls: waiting for a resolution or expiry")
  public class ToolCallWaits extends ToolCallWaitContract {
    ToolCallWaits() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link ReturnedListContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Returned lists: every list a store returns is unmodifiable")
  public class ReturnedLists extends ReturnedListContract {
    ReturnedLists() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link DeadlineContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Tool calls: deadlines held by the store")
  public class Deadlines extends DeadlineContract {
    Deadlines() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link SummaryContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Summaries: revival reads and chapters")
  public class Summaries extends SummaryContract {
    Summaries() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link ForkContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Forks")
  public class Forks extends ForkContract {
    Forks() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link TruncationContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Truncation")
  public class Truncation extends TruncationContract {
    Truncation() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link CheckpointContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Checkpoints and turn state")
  public class Checkpoints extends CheckpointContract {
    Checkpoints() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link ModelCallAuditContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Model-call audit")
  public class ModelCalls extends ModelCallAuditContract {
    ModelCalls() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link TenantContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Tenants")
  public class Tenants extends TenantContract {
    Tenants() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link ArchiveContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Archives: lossless export and import of whole sessions")
  public class Archives extends ArchiveContract {
    Archives() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link SearchContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Search: words, phrases and prefixes in scope, ranked and paged, gone with what is removed")
  public class Search extends SearchContract {
    Search() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link SharedBackendContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Writer fencing: claims hand out growing tokens, superseded writers store nothing")
  public class WriterFencing extends WriterFencingContract {
    WriterFencing() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link SharedBackendContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("optional")
  @DisplayName("Shared backend: a second instance sees the same store, wakes and deadlines cross instances")
  public class SharedBackend extends SharedBackendContract {
    SharedBackend() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link CapabilityAbsenceContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Absent capabilities: every capability a store does not declare is refused, and nothing is stored")
  public class AbsentCapabilities extends CapabilityAbsenceContract {
    AbsentCapabilities() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link ClosedStoreContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Closed store: every operation fails with StoreClosedException, blocked waits are released")
  public class ClosedStore extends ClosedStoreContract {
    ClosedStore() {
      super(SessionStoreConformance.this);
    }
  }

  /** The tests of {@link DeletionContract}, run as a JUnit nested group against this kit's stores. */
  @Nested
  @Tag("required")
  @DisplayName("Deletion: everything a session owns goes with it")
  public class Deletion extends DeletionContract {
    Deletion() {
      super(SessionStoreConformance.this);
    }
  }
}
