package dev.sessionstore.spi;

import dev.sessionstore.Capability;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.UnsupportedCapabilityException;
import java.util.EnumSet;
import java.util.Set;

/**
 * The optional capabilities an adapter declared when the {@link ValidatingSessionStore} wrapped it, and the rule of
 * the contract for the ones it lacks: an operation, or a member of a step, that needs an undeclared capability fails
 * with {@link UnsupportedCapabilityException} naming it before the adapter is called, so nothing is stored (a step is
 * refused whole). What needs what is stated on {@link Capability} and on each operation's {@code @throws}.
 *
 * <p>Read once: a store's capabilities are fixed for its life. Immutable and thread-safe.
 */
final class DeclaredCapabilities {

  private final Set<Capability> declared;

  DeclaredCapabilities(Set<Capability> declared) {
    this.declared = declared.isEmpty() ? EnumSet.noneOf(Capability.class) : EnumSet.copyOf(declared);
  }

  /** @throws UnsupportedCapabilityException if {@code capability} is not declared */
  void require(Capability capability) {
    if (!declared.contains(capability)) {
      throw new UnsupportedCapabilityException(capability);
    }
  }

  /** A session write that gives a tenant needs {@link Capability#TENANTS}. */
  void requireFor(SessionWrite write) {
    if (write.tenant() != null) {
      require(Capability.TENANTS);
    }
  }

  /** A listing by tenant needs {@link Capability#TENANTS}. */
  void requireFor(SessionQuery query) {
    if (query.tenant() != null) {
      require(Capability.TENANTS);
    }
  }

  /** A search scoped to a tenant needs {@link Capability#TENANTS}. */
  void requireFor(SearchQuery query) {
    if (query.tenant() != null) {
      require(Capability.TENANTS);
    }
  }

  /** A tool call registered with a deadline needs {@link Capability#DEADLINES}. */
  void requireFor(ToolCallWrite call) {
    if (call.deadline() != null) {
      require(Capability.DEADLINES);
    }
  }

  /**
   * Every member of {@code step} that needs a capability, in the order the step applies them: the fence
   * ({@link Capability#WRITER_FENCING}), a session write's tenant ({@link Capability#TENANTS}), the cut
   * ({@link Capability#TRUNCATION}), tool calls registered, resolved or given deadlines
   * ({@link Capability#TOOL_CALLS}; deadlines also {@link Capability#DEADLINES}), the summary
   * ({@link Capability#SUMMARIES}), checkpoints ({@link Capability#CHECKPOINTS}) and the model call
   * ({@link Capability#MODEL_CALL_AUDIT}).
   */
  void requireFor(Step step) {
    if (step.fence().isPresent()) {
      require(Capability.WRITER_FENCING);
    }
    step.session().ifPresent(this::requireFor);
    if (step.truncateFrom().isPresent()) {
      require(Capability.TRUNCATION);
    }
    if (!step.toolCalls().isEmpty() || !step.resolutions().isEmpty() || !step.deadlines().isEmpty()) {
      require(Capability.TOOL_CALLS);
    }
    step.toolCalls().forEach(this::requireFor);
    if (!step.deadlines().isEmpty()) {
      require(Capability.DEADLINES);
    }
    if (step.summary().isPresent()) {
      require(Capability.SUMMARIES);
    }
    if (!step.checkpoints().isEmpty()) {
      require(Capability.CHECKPOINTS);
    }
    if (step.modelCall().isPresent()) {
      require(Capability.MODEL_CALL_AUDIT);
    }
  }
}
