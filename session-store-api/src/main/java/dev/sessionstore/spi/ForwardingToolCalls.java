package dev.sessionstore.spi;

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

/**
 * {@link ToolCalls} that forwards every method to a delegate through an {@link Interception}; a decorator overrides
 * the methods whose values it changes and calls {@code super} to forward. Thread-safe when the delegate and the
 * interception are.
 */
public class ForwardingToolCalls implements ToolCalls {

  private final ToolCalls delegate;
  private final Interception interception;

  /** Forwards to {@code delegate}, every call through {@code interception}. */
  public ForwardingToolCalls(ToolCalls delegate, Interception interception) {
    this.delegate = Arguments.requireNonNull("delegate", delegate);
    this.interception = Arguments.requireNonNull("interception", interception);
  }

  @Override
  public ToolCall save(ToolCallWrite call) {
    return interception.around("toolCalls.save", call == null ? null : call.sessionId(), () -> delegate.save(call));
  }

  @Override
  public Optional<ToolCall> find(String sessionId, String toolCallId) {
    return interception.around("toolCalls.find", sessionId, () -> delegate.find(sessionId, toolCallId));
  }

  @Override
  public List<ToolCall> pending(String sessionId) {
    return interception.around("toolCalls.pending", sessionId, () -> delegate.pending(sessionId));
  }

  @Override
  public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
    return interception.around("toolCalls.resolve", sessionId,
        () -> delegate.resolve(sessionId, toolCallId, status, result));
  }

  @Override
  public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
    return interception.around("toolCalls.await", sessionId, () -> delegate.await(sessionId, toolCallId, timeout));
  }

  @Override
  public boolean expireAt(String sessionId, String toolCallId, Instant deadline) {
    return interception.around("toolCalls.expireAt", sessionId,
        () -> delegate.expireAt(sessionId, toolCallId, deadline));
  }

  @Override
  public boolean expireAfter(String sessionId, String toolCallId, Duration timeout) {
    return interception.around("toolCalls.expireAfter", sessionId,
        () -> delegate.expireAfter(sessionId, toolCallId, timeout));
  }

  @Override
  public boolean cancelDeadline(String sessionId, String toolCallId) {
    return interception.around("toolCalls.cancelDeadline", sessionId,
        () -> delegate.cancelDeadline(sessionId, toolCallId));
  }
}
