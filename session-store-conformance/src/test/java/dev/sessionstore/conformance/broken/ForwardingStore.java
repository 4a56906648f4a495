package dev.sessionstore.conformance.broken;

import dev.sessionstore.Capability;
import dev.sessionstore.Checkpoints;
import dev.sessionstore.EventLog;
import dev.sessionstore.Flush;
import dev.sessionstore.FlushResult;
import dev.sessionstore.ModelCallAudit;
import dev.sessionstore.Runs;
import dev.sessionstore.SessionStore;
import dev.sessionstore.Sessions;
import dev.sessionstore.Summaries;
import dev.sessionstore.ToolCalls;
import java.util.Set;

/**
 * A store that forwards every call to a correct delegate; a broken store overrides the aggregate accessor it breaks
 * and returns a {@code Forwarding...} wrapper with one method changed.
 */
public class ForwardingStore implements SessionStore {

  protected final SessionStore delegate;

  public ForwardingStore(SessionStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public Sessions sessions() {
    return delegate.sessions();
  }

  @Override
  public EventLog events() {
    return delegate.events();
  }

  @Override
  public Runs runs() {
    return delegate.runs();
  }

  @Override
  public ToolCalls toolCalls() {
    return delegate.toolCalls();
  }

  @Override
  public Summaries summaries() {
    return delegate.summaries();
  }

  @Override
  public Checkpoints checkpoints() {
    return delegate.checkpoints();
  }

  @Override
  public ModelCallAudit modelCalls() {
    return delegate.modelCalls();
  }

  @Override
  public FlushResult flush(Flush flush) {
    return delegate.flush(flush);
  }

  @Override
  public Set<Capability> capabilities() {
    return delegate.capabilities();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
