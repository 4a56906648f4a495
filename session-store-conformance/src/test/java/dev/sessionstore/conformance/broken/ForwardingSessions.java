package dev.sessionstore.conformance.broken;

import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Sessions;
import dev.sessionstore.WriterClaim;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Forwards every call to a delegate; broken stores override the one method they break. */
public class ForwardingSessions implements Sessions {

  protected final Sessions delegate;

  public ForwardingSessions(Sessions delegate) {
    this.delegate = delegate;
  }

  @Override
  public Session save(SessionWrite write) {
    return delegate.save(write);
  }

  @Override
  public Session mergeMetadata(String sessionId, Map<String, String> patch) {
    return delegate.mergeMetadata(sessionId, patch);
  }

  @Override
  public Optional<Session> find(String sessionId) {
    return delegate.find(sessionId);
  }

  @Override
  public Optional<Session> findByName(String name) {
    return delegate.findByName(name);
  }

  @Override
  public SessionPage list(SessionQuery query) {
    return delegate.list(query);
  }

  @Override
  public List<String> listResumable() {
    return delegate.listResumable();
  }

  @Override
  public Session fork(String sessionId, long atSeq) {
    return delegate.fork(sessionId, atSeq);
  }

  @Override
  public Session fork(String sessionId, long atSeq, String newSessionId) {
    return delegate.fork(sessionId, atSeq, newSessionId);
  }

  @Override
  public boolean delete(String sessionId) {
    return delegate.delete(sessionId);
  }

  @Override
  public int deleteByTenant(String tenant) {
    return delegate.deleteByTenant(tenant);
  }

  @Override
  public WriterClaim claim(String sessionId, String ownerId) {
    return delegate.claim(sessionId, ownerId);
  }

  @Override
  public Optional<WriterClaim> currentClaim(String sessionId) {
    return delegate.currentClaim(sessionId);
  }
}
