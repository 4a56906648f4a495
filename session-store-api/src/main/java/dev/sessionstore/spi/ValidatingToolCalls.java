package dev.sessionstore.spi;

import dev.sessionstore.Capability;
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
 * The tool calls of a {@link ValidatingSessionStore}: the closed check and the argument rules, then the adapter's.
 * A deadline reaches the adapter truncated to microseconds ({@link Arguments#requireInstant}).
 */
final class ValidatingToolCalls implements ToolCalls {

  private final OpenGate gate;
  private final DeclaredCapabilities declared;
  private final ToolCalls adapter;

  ValidatingToolCalls(OpenGate gate, DeclaredCapabilities declared, ToolCalls adapter) {
    this.gate = gate;
    this.declared = declared;
    this.adapter = adapter;
  }

  @Override
  public ToolCall save(ToolCallWrite call) {
    gate.checkOpen();
    Arguments.requireNonNull("toolCall", call);
    declared.requireFor(call);
    return adapter.save(call);
  }

  @Override
  public Optional<ToolCall> find(String sessionId, String toolCallId) {
    requireCall(sessionId, toolCallId);
    return adapter.find(sessionId, toolCallId);
  }

  @Override
  public List<ToolCall> pending(String sessionId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    return adapter.pending(sessionId);
  }

  @Override
  public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
    requireCall(sessionId, toolCallId);
    Arguments.requireResolvedStatus("status", status);
    return adapter.resolve(sessionId, toolCallId, status, result);
  }

  @Override
  public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
    requireCall(sessionId, toolCallId);
    Arguments.requireNonNegative("timeout", timeout);
    return gate.await(() -> adapter.await(sessionId, toolCallId, timeout), Optional::isPresent);
  }

  @Override
  public boolean expireAt(String sessionId, String toolCallId, Instant deadline) {
    requireCall(sessionId, toolCallId);
    Instant checked = Arguments.requireInstant("deadline", deadline);
    declared.require(Capability.DEADLINES);
    return adapter.expireAt(sessionId, toolCallId, checked);
  }

  @Override
  public boolean expireAfter(String sessionId, String toolCallId, Duration timeout) {
    requireCall(sessionId, toolCallId);
    Arguments.requireNonNegative("timeout", timeout);
    declared.require(Capability.DEADLINES);
    return adapter.expireAfter(sessionId, toolCallId, timeout);
  }

  @Override
  public boolean cancelDeadline(String sessionId, String toolCallId) {
    requireCall(sessionId, toolCallId);
    declared.require(Capability.DEADLINES);
    return adapter.cancelDeadline(sessionId, toolCallId);
  }

  /** The checks of every operation that names one call: the store is open, both ids are keys. */
  private void requireCall(String sessionId, String toolCallId) {
    gate.checkOpen();
    Arguments.requireKey("sessionId", sessionId);
    Arguments.requireKey("toolCallId", toolCallId);
  }
}
