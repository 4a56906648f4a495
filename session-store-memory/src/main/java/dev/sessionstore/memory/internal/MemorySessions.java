package dev.sessionstore.memory.internal;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.ConflictException;
import dev.sessionstore.Event;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Sessions;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.WriterClaim;
import dev.sessionstore.spi.Failures;
import dev.sessionstore.spi.ForkRule;
import dev.sessionstore.spi.IdOrder;
import dev.sessionstore.spi.SessionCursor;
import dev.sessionstore.spi.Upserts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The sessions of an in-memory store. A save merges, claims the name and stores under the session's lock; names are
 * unique through the registry's atomic claims. A fork takes what {@link ForkRule} says under the parent's lock, then
 * creates the fork under its own, so no thread ever holds two session locks. It costs the same whatever the length of
 * the log: its log shares the parent's events ({@link SessionLog#forkAt}), runs are found by the first seq naming
 * them and tool calls by their requesting event's id, never by scanning the prefix; copied pending calls get their
 * own deadline timers.
 */
final class MemorySessions implements Sessions {

  private final StoreContext context;
  private final SessionRegistry registry;
  private final MemoryToolCalls toolCalls;
  private final WriterFences fences;

  MemorySessions(StoreContext context, SessionRegistry registry, MemoryToolCalls toolCalls, WriterFences fences) {
    this.context = context;
    this.registry = registry;
    this.toolCalls = toolCalls;
    this.fences = fences;
  }

  @Override
  public WriterClaim claim(String sessionId, String ownerId) {
    return fences.claim(sessionId, ownerId);
  }

  @Override
  public Optional<WriterClaim> currentClaim(String sessionId) {
    return fences.currentClaim(sessionId);
  }

  @Override
  public Session save(SessionWrite write) {
    return registry.withCreatable(write.id(), state -> {
      Session session = merge(state, write, context.now());
      claimName(session);
      registry.store(state, session);
      return session;
    });
  }

  /**
   * The session {@code write} makes of the state's record, checked but not stored. The caller holds the lock and
   * claims the name ({@link #claimName}) before storing.
   *
   * @throws ConflictException if another session has the name
   */
  Session merge(SessionState state, SessionWrite write, Instant now) {
    Session session = Upserts.session(write, state.session(), now);
    if (session.name() != null) {
      registry.names.requireAvailable(session.name(), state.id);
    }
    return session;
  }

  /**
   * Claims the name of a merged session. Every caller claims last, once nothing of its write can fail, so a claim
   * is never released for a write that did not happen.
   *
   * @throws ConflictException if another session claimed the name since {@link #merge}
   */
  void claimName(Session session) {
    if (session.name() != null) {
      registry.names.claim(session.name(), session.id());
    }
  }

  @Override
  public Session mergeMetadata(String sessionId, Map<String, String> patch) {
    SessionWrite write = SessionWrite.of(sessionId).withMetadata(patch);
    return registry.withExisting(sessionId, state -> {
      Session session = Upserts.session(write, state.session(), context.now());
      registry.store(state, session);
      return session;
    }, () -> {
      throw Failures.sessionNotFound(sessionId);
    });
  }

  @Override
  public Optional<Session> find(String sessionId) {
    return Optional.ofNullable(registry.session(sessionId));
  }

  @Override
  public Optional<Session> findByName(String name) {
    String owner = registry.names.owner(name);
    Session session = owner == null ? null : registry.session(owner);
    return session != null && name.equals(session.name()) ? Optional.of(session) : Optional.empty();
  }

  @Override
  public SessionPage list(SessionQuery query) {
    SessionCursor from = query.cursor() == null ? null : SessionCursor.decode(query.cursor());
    int limit = query.limit().orElse(Integer.MAX_VALUE);
    int toSkip = query.offset();
    List<Session> items = new ArrayList<>();
    Collection<SessionState> candidates = query.expiresBefore() == null ? registry.inListingOrder(from)
        : registry.expiringBefore(query.expiresBefore(), from);
    for (SessionState state : candidates) {
      Session session = state.session();
      if (session == null || !query.matches(session)) {
        continue;
      }
      if (toSkip > 0) {
        toSkip--;
      } else if (items.size() == limit) {
        return new SessionPage(items, Optional.of(SessionCursor.after(items.get(limit - 1)).encode()));
      } else {
        items.add(session);
      }
    }
    return new SessionPage(items, Optional.empty());
  }

  @Override
  public List<String> listResumable() {
    return registry.all().stream()
        .map(SessionState::session)
        .filter(session -> session != null && session.resumesEagerly())
        .map(Session::id)
        .sorted(IdOrder.BY_CODE_POINT)
        .toList();
  }

  @Override
  public Session fork(String sessionId, long atSeq) {
    return fork(sessionId, atSeq, UUID.randomUUID().toString());
  }

  @Override
  public Session fork(String sessionId, long atSeq, String newSessionId) {
    ForkSource source = registry.withExisting(sessionId, parent -> {
      if (atSeq > parent.log.lastSeq() || atSeq < parent.log.firstSeq()) {
        throw Failures.forkPointNotFound(sessionId, atSeq);
      }
      Instant now = context.now();
      List<ToolCall> calls = new ArrayList<>();
      for (String toolCallId : List.copyOf(parent.toolCalls.keySet())) {
        ToolCall call = toolCalls.current(parent, toolCallId, now);
        Event request = call.requestEventId() == null ? null : parent.log.find(call.requestEventId());
        if (request != null && ForkRule.isInPrefix(request.seq(), atSeq)) {
          calls.add(call);
        }
      }
      return new ForkSource(parent.session(), parent.log.forkAt(newSessionId, atSeq),
          parent.summaries.values().stream().filter(summary -> ForkRule.takesSummary(summary, atSeq)).toList(),
          parent.runs.values().stream()
              .filter(run -> ForkRule.isInPrefix(parent.log.firstSeqNaming(run.id()), atSeq)).toList(),
          calls, List.copyOf(parent.checkpoints.values()));
    }, () -> {
      throw Failures.sessionNotFound(sessionId);
    });
    return registry.withCreatable(newSessionId, state -> {
      if (state.exists()) {
        throw Failures.forkTargetExists(newSessionId);
      }
      Session fork = ForkRule.session(source.session(), newSessionId, atSeq, context.now());
      registry.store(state, fork);
      state.log = source.log();
      source.summaries().forEach(summary -> state.summaries.put(summary.toSeq(), ForkRule.copy(summary, newSessionId)));
      source.runs().forEach(run -> state.runs.put(run.id(), ForkRule.copy(run, newSessionId)));
      source.toolCalls().forEach(call -> toolCalls.store(state, ForkRule.copy(call, newSessionId)));
      source.checkpoints().forEach(checkpoint ->
          state.checkpoints.put(checkpoint.key().name(), ForkRule.copy(checkpoint, newSessionId)));
      state.signalAppended();
      return fork;
    });
  }

  @Override
  public boolean delete(String sessionId) {
    return registry.delete(sessionId, session -> true);
  }

  @Override
  public int deleteByTenant(String tenant) {
    int deleted = 0;
    for (SessionState state : registry.all()) {
      Session session = state.session();
      if (session != null && tenant.equals(session.tenant())
          && registry.delete(state.id, current -> tenant.equals(current.tenant()))) {
        deleted++;
      }
    }
    return deleted;
  }

  /**
   * What a fork takes from its parent, taken in one consistent view under the parent's lock: its log shares the
   * parent's events, the rest are copied.
   */
  private record ForkSource(Session session, SessionLog log, List<Summary> summaries, List<Run> runs,
      List<ToolCall> toolCalls, List<Checkpoint> checkpoints) {
  }
}
