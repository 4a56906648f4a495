package dev.sessionstore.spi;

import dev.sessionstore.Capability;
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
 * The sessions of a {@link ValidatingSessionStore}: the closed check, the argument rules and the declared capabilities
 * (forks, tenants, writer fencing), then the adapter's. A
 * listing's cursor is decoded here once, so an adapter only ever sees cursors {@link SessionCursor#decode} accepts.
 */
final class ValidatingSessions implements Sessions {

  private final OpenGate gate;
  private final DeclaredCapabilities declared;
  private final Sessions adapter;

  ValidatingSessions(OpenGate gate, DeclaredCapabilities declared, Sessions adapter) {
    this.gate = gate;
    this.declared = declared;
    this.adapter = adapter;
  }

  @Override
  public Session save(SessionWrite write) {
    gate.checkOpen();
    Arguments.requireNonNull("session", write);
    declared.requireFor(write);
    return adapter.save(write);
  }

  @Override
  public Session mergeMetadata(String sessionId, Map<String, String> patch) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return adapter.mergeMetadata(sessionId, Arguments.requireMetadataPatch("metadata", patch));
  }

  @Override
  public Optional<Session> find(String sessionId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return adapter.find(sessionId);
  }

  @Override
  public Optional<Session> findByName(String name) {
    gate.checkOpen();
    Arguments.requireKey("name", name);
    return adapter.findByName(name);
  }

  @Override
  public SessionPage list(SessionQuery query) {
    gate.checkOpen();
    Arguments.requireNonNull("query", query);
    if (query.cursor() != null) {
      SessionCursor.decode(query.cursor());
    }
    declared.requireFor(query);
    return adapter.list(query);
  }

  @Override
  public List<String> listResumable() {
    gate.checkOpen();
    return adapter.listResumable();
  }

  @Override
  public Session fork(String sessionId, long atSeq) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requirePositive("atSeq", atSeq);
    declared.require(Capability.FORKS);
    return adapter.fork(sessionId, atSeq);
  }

  @Override
  public Session fork(String sessionId, long atSeq, String newSessionId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requirePositive("atSeq", atSeq);
    Arguments.requireKey("newSessionId", newSessionId);
    declared.require(Capability.FORKS);
    return adapter.fork(sessionId, atSeq, newSessionId);
  }

  @Override
  public boolean delete(String sessionId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return adapter.delete(sessionId);
  }

  @Override
  public int deleteByTenant(String tenant) {
    gate.checkOpen();
    Arguments.requireKey("tenant", tenant);
    declared.require(Capability.TENANTS);
    return adapter.deleteByTenant(tenant);
  }

  @Override
  public WriterClaim claim(String sessionId, String ownerId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireKey("ownerId", ownerId);
    declared.require(Capability.WRITER_FENCING);
    return adapter.claim(sessionId, ownerId);
  }

  @Override
  public Optional<WriterClaim> currentClaim(String sessionId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    declared.require(Capability.WRITER_FENCING);
    return adapter.currentClaim(sessionId);
  }
}
