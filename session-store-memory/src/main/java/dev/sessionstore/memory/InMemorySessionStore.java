package dev.sessionstore.memory;

import dev.sessionstore.Capability;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.internal.MemoryStore;
import dev.sessionstore.spi.RetentionRules;
import dev.sessionstore.spi.ValidatingSessionStore;
import dev.sessionstore.RetentionPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * A {@link SessionStore} that keeps everything in the heap of one process: for unit tests, single-process agents and
 * as the reference the conformance kit is checked against. It gives every guarantee of the contract within the
 * process and supports every {@link Capability} except {@link Capability#CROSS_PROCESS_WAKEUP} and
 * {@link Capability#DURABLE_DEADLINES}; nothing survives the process.
 *
 * <pre>{@code
 * SessionStore store = InMemorySessionStore.builder().build();
 * SessionStore audited = InMemorySessionStore.builder().clock(clock).modelCallAudit(true).build();
 * SessionStore retaining = InMemorySessionStore.builder()
 *     .retention(RetentionPolicy.builder().deleteSessionsIdleFor(Duration.ofDays(30)).build(), Duration.ofHours(1))
 *     .build();
 * }</pre>
 *
 * <p>The store is thread-safe and meant to be shared. It owns one daemon thread that fires tool-call deadlines;
 * {@link SessionStore#close()} stops it and releases blocked waits, after which every operation fails with
 * {@link dev.sessionstore.StoreClosedException}. Arguments are checked by the shared
 * {@link ValidatingSessionStore} in front of the store, as in every adapter.
 */
public final class InMemorySessionStore {

  /**
   * The optional capabilities an in-memory store has, and declares unless {@link Builder#capabilities} declares
   * fewer: every {@link Capability} but {@link Capability#CROSS_PROCESS_WAKEUP} and
   * {@link Capability#DURABLE_DEADLINES}, which need a backend shared with other processes.
   */
  public static final Set<Capability> AVAILABLE = Collections.unmodifiableSet(
      EnumSet.complementOf(EnumSet.of(Capability.CROSS_PROCESS_WAKEUP, Capability.DURABLE_DEADLINES)));

  private InMemorySessionStore() {
  }

  /** A builder with the defaults: the system UTC clock, model-call audit off. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Configures an in-memory store. Each setting may be set at most once; the builder may build any number of
   * independent stores. Not thread-safe.
   */
  public static final class Builder {

    private Clock clock;
    private Boolean modelCallAudit;
    private RetentionPolicy retentionPolicy;
    private Duration retentionInterval;
    private Set<Capability> capabilities;

    private Builder() {
    }

    /**
     * Applies {@code policy} every {@code interval} of the store clock, on the store's deadline thread, from
     * {@code interval} after the store is built until it is closed ({@link dev.sessionstore.Retention}). Default:
     * no schedule; {@link SessionStore#retention()} still applies policies on demand. The interval is bounded as on
     * every adapter ({@link RetentionRules#requireInterval}): at least 10 ms, so the sweep never spins, and at most 1
     * hour, as the schedule lives and dies with this process and runs first one interval after the build (a longer
     * interval could outlast the process and never sweep).
     *
     * @throws InvalidArgumentException naming {@code retentionPolicy} if it is null or retention was already set, or
     *                                  {@code retentionInterval} if it is null or out of range (10 ms to 1 hour)
     */
    public Builder retention(RetentionPolicy policy, Duration interval) {
      if (policy == null) {
        throw new InvalidArgumentException("retentionPolicy", "must not be null");
      }
      if (retentionPolicy != null) {
        throw new InvalidArgumentException("retentionPolicy", "was already set to " + retentionPolicy
            + "; each setter may be called once");
      }
      retentionInterval = RetentionRules.requireInterval(interval);
      retentionPolicy = policy;
      return this;
    }

    /**
     * The clock the store stamps records with and measures deadlines and audit age by. Default
     * {@link Clock#systemUTC()}.
     *
     * @throws InvalidArgumentException naming {@code clock} if it is null or was already set
     */
    public Builder clock(Clock clock) {
      if (clock == null) {
        throw new InvalidArgumentException("clock", "must not be null");
      }
      if (this.clock != null) {
        throw new InvalidArgumentException("clock", "was already set to " + this.clock
            + "; each setter may be called once");
      }
      this.clock = clock;
      return this;
    }

    /**
     * Whether the store records the model-call audit. Default {@code false}: recording stores nothing and listing
     * is empty.
     *
     * @throws InvalidArgumentException naming {@code modelCallAudit} if the audit setting was already set
     */
    public Builder modelCallAudit(boolean enabled) {
      if (modelCallAudit != null) {
        throw new InvalidArgumentException("modelCallAudit", "was already set to " + modelCallAudit
            + "; each setter may be called once");
      }
      modelCallAudit = enabled;
      return this;
    }

    /**
     * Declares only {@code declared} of the optional capabilities, and refuses every other one as a store lacking it
     * does ({@link Capability}: its accessor, every operation and every step member that needs it fail with
     * {@link dev.sessionstore.UnsupportedCapabilityException}, nothing stored). For testing an application against
     * a store with fewer capabilities than this one, and for certifying the conformance kit on such stores. Default:
     * every capability the in-memory store has ({@link #AVAILABLE}).
     *
     * @throws InvalidArgumentException naming {@code capabilities} if {@code declared} is null, holds null or a
     *                                  capability the in-memory store does not have (see {@link #AVAILABLE}), leaves
     *                                  out one that a declared capability needs ({@link Capability#DEADLINES} needs
     *                                  {@link Capability#TOOL_CALLS}), or was already set
     */
    public Builder capabilities(Set<Capability> declared) {
      if (declared == null) {
        throw new InvalidArgumentException("capabilities", "must not be null");
      }
      if (capabilities != null) {
        throw new InvalidArgumentException("capabilities", "was already set to " + capabilities
            + "; each setter may be called once");
      }
      Set<Capability> copy = EnumSet.noneOf(Capability.class);
      for (Capability capability : declared) {
        if (capability == null) {
          throw new InvalidArgumentException("capabilities", "must not hold null");
        }
        if (!AVAILABLE.contains(capability)) {
          throw new InvalidArgumentException("capabilities", "holds " + capability
              + ", which the in-memory store does not have; it has " + AVAILABLE);
        }
        copy.add(capability);
      }
      if (copy.contains(Capability.DEADLINES) && !copy.contains(Capability.TOOL_CALLS)) {
        throw new InvalidArgumentException("capabilities", "holds DEADLINES without TOOL_CALLS, which it needs");
      }
      capabilities = Collections.unmodifiableSet(copy);
      return this;
    }

    /**
     * A new, empty store with this configuration, independent of every other store this builder built.
     *
     * @throws InvalidArgumentException naming {@code capabilities} if they leave out {@link Capability#RETENTION}
     *                                  while a retention schedule is set, or {@link Capability#MODEL_CALL_AUDIT}
     *                                  while the audit is switched on
     */
    public SessionStore build() {
      Set<Capability> declared = capabilities == null ? AVAILABLE : capabilities;
      boolean audit = modelCallAudit != null && modelCallAudit;
      if (retentionPolicy != null && !declared.contains(Capability.RETENTION)) {
        throw new InvalidArgumentException("capabilities", "leave out RETENTION, but a retention schedule is set");
      }
      if (audit && !declared.contains(Capability.MODEL_CALL_AUDIT)) {
        throw new InvalidArgumentException("capabilities",
            "leave out MODEL_CALL_AUDIT, but the model-call audit is switched on");
      }
      return ValidatingSessionStore.wrap(new MemoryStore(clock == null ? Clock.systemUTC() : clock, audit,
          retentionPolicy, retentionInterval, declared));
    }
  }
}
