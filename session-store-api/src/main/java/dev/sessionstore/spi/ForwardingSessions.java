package dev.sessionstore.spi;

import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Sessions;
import dev.sessionstore.WriterClaim;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link Sessions} that forwards every method to a delegate through an {@link Interception}; a decorator overrides
 * the methods whose values it changes and calls {@code super} to forward. Thread-safe when the delegate and the
 * interception are.
 */
public class ForwardingSessions implements Sessions {

  private final Sessions delegate;
  private final Interception interception;

  /** Forwards to {@code delegate}, every call through {@code interception}. */
  public ForwardingSessions(Sessions delegate, Interception interception) {
    this.delegate = Arguments.requireNonNull("delegate", delegate);
    this.interception = Arguments.requireNonNull("interception", interception);
  }

  @Override
  public Session save(SessionWrite write) {
    return interception.around("sessions.save", write == null ? null : write.id(), () -> delegate.save(write));
  }

  @Override
  public Session mergeMetadata(String sessionId, Map<String, String> patch) {
    return interception.around("sessions.mergeMetadata", sessionId, () -> delegate.mergeMetadata(sessionId, patch));
  }

  @Override
  public Optional<Session> find(String sessionId) {
    return interception.around("sessions.find", sessionId, () -> delegate.find(sessionId));
  }

  @Override
  public Optional<Session> findByName(String name) {
    return interception.around("sessions.findByName", null, () -> delegate.findByName(name));
  }

  @Override
  public SessionPage list(SessionQuery query) {
    return interception.around("sessions.list", null, () -> delegate.list(query));
  }

  @Override
  public List<String> listResumable() {
    return interception.around("sessions.listResumable", null, delegate::listResumable);
  }

  @Override
  public Session fork(String sessionId, long atSeq) {
    return interception.around("sessions.fork", sessionId, () -> delegate.fork(sessionId, atSeq));
  }

  @Override
  public Session fork(String sessionId, long atSeq, String newSessionId) {
    return interception.around("sessions.fork", sessionId, () -> delegate.fork(sessionId, atSeq, newSessionId));
  }

  @Override
  public boolean delete(String sessionId) {
    return interception.around("sessions.delete", sessionId, () -> delegate.delete(sessionId));
  }

  @Override
  public int deleteByTenant(String tenant) {
    return interception.around("sessions.deleteByTenant", null, () -> delegate.deleteByTenant(tenant));
  }

  @Override
  public WriterClaim claim(String sessionId, String ownerId) {
    return interception.around("sessions.claim", sessionId, () -> delegate.claim(sessionId, ownerId));
  }

  @Override
  public Optional<WriterClaim> currentClaim(String sessionId) {
    return interception.around("sessions.currentClaim", sessionId, () -> delegate.currentClaim(sessionId));
  }
}
