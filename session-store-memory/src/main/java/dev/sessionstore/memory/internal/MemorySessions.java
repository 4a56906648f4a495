package dev.sessionstore.memory.internal;

import dev.sessionstore.ConflictException;
import dev.sessionstore.Event;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.NotFoundException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Sessions;
import dev.sessionstore.Summary;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.IdOrder;
import dev.sessionstore.spi.SessionCursor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The sessions of an in-memory store. A save merges, claims the name and stores under the session's lock; names are
 * unique through the registry's atomic claims. A fork copies the parent's prefix under the parent's lock, then
 * creates the fork under its own, so no thread ever holds two session locks.
 */
final class MemorySessions implements Sessions {

  private final StoreContext context;
  private final SessionRegistry registry;

  MemorySessions(StoreContext context, SessionRegistry registry) {
    this.context = context;
    this.registry = registry;
  }

  @Override
  public Session save(SessionWrite write) {
    context.checkOpen();
    Arguments.requireNonNull("session", write);
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
    Session session = write.applyTo(state.session(), now);
    if (session.name() != null) {
      registry.names.requireAvailable(session.name(), state.id);
    }
    return session;
  }

  /**
   * Claims the name of a merged session.
   *
   * @return whether this call claimed it, so that a caller failing later must release it
   * @throws ConflictException if another session claimed the name since {@link #merge}
   */
  boolean claimName(Session session) {
    return session.name() != null && registry.names.claim(session.name(), session.id());
  }

  @Override
  public Optional<Session> find(String sessionId) {
    context.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return Optional.ofNullable(registry.session(sessionId));
  }

  @Override
  public Optional<Session> findByName(String name) {
    context.checkOpen();
    Arguments.requireKey("name", name);
    String owner = registry.names.owner(name);
    Session session = owner == null ? null : registry.session(owner);
    return session != null && name.equals(session.name()) ? Optional.of(session) : Optional.empty();
  }

  @Override
  public SessionPage list(SessionQuery query) {
    context.checkOpen();
    Arguments.requireNonNull("query", query);
    SessionCursor from = query.cursor() == null ? null : SessionCursor.decode(query.cursor());
    int limit = query.limit().orElse(Integer.MAX_VALUE);
    int toSkip = query.offset();
    List<Session> items = new ArrayList<>();
    for (SessionState state : registry.inListingOrder(from)) {
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
    context.checkOpen();
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
    context.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requirePositive("atSeq", atSeq);
    Arguments.requireKey("newSessionId", newSessionId);
    ForkSource source = registry.withExisting(sessionId, parent -> {
      if (atSeq > parent.log.lastSeq()) {
        throw new NotFoundException("event", sessionId + "@" + atSeq);
      }
      return new ForkSource(parent.session(), parent.log.range(0, atSeq),
          List.copyOf(parent.summaries.headMap(atSeq, true).values()));
    }, () -> {
      throw new NotFoundException("session", sessionId);
    });
    return registry.withCreatable(newSessionId, state -> {
      if (state.exists()) {
        throw new ConflictException("session " + newSessionId + " already exists");
      }
      Session parent = source.session();
      Instant now = context.now();
      Session fork = new Session(newSessionId, null, parent.tenant(), parent.agentId(), parent.status(),
          parent.settings(), parent.metadata(), new ForkOrigin(sessionId, atSeq), now, now);
      registry.store(state, fork);
      state.log.addAll(source.events().stream().map(event -> event.inSession(newSessionId)).toList());
      source.summaries().forEach(summary -> state.summaries.put(summary.toSeq(), summary.inSession(newSessionId)));
      state.appended.signalAll();
      return fork;
    });
  }

  @Override
  public boolean delete(String sessionId) {
    context.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return registry.delete(sessionId, session -> true);
  }

  @Override
  public int deleteByTenant(String tenant) {
    context.checkOpen();
    Arguments.requireKey("tenant", tenant);
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

  /** What a fork copies from its parent, taken in one consistent view under the parent's lock. */
  private record ForkSource(Session session, List<Event> events, List<Summary> summaries) {
  }
}
