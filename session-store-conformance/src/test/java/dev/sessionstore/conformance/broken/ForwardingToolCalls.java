package dev.sessionstore.conformance.broken;

import dev.sessionstore.Json;
import dev.sessionstore.Resolution;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCalls;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Forwards every call to a delegate; broken stores override the one method they break. */
public class ForwardingToolCalls implements ToolCalls {

  protected final ToolCalls delegate;

  public ForwardingToolCalls(ToolCalls delegate) {
    this.delegate = delegate;
  }

  @Override
  public ToolCall save(ToolCallWrite call) {
    return delegate.save(call);
  }

  @Override
  public Optional<ToolCall> find(String sessionId, String toolCallId) {
    return delegate.find(sessionId, toolCallId);
  }

  @Override
  public List<ToolCall> pending(String sessionId) {
    return delegate.pending(sessionId);
  }

  @Override
  public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
    return delegate.resolve(sessionId, toolCallId, status, result);
  }

  @Override
  public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
    return delegate.await(sessionId, toolCallId, timeout);
  }

  @Override
  public boolean expireAt(String sessionId, String toolCallId, Instant deadline) {
    return delegate.expireAt(sessionId, toolCallId, deadline);
  }

  @Override
  public boolean expireAfter(String sessionId, String toolCallId, Duration timeout) {
    return delegate.expireAfter(sessionId, toolCallId, timeout);
  }

  @Override
  public boolean cancelDeadline(String sessionId, String toolCallId) {
    return delegate.cancelDeadline(sessionId, toolCallId);
  }
}
