package dev.sessionstore.crypto;

import dev.sessionstore.Json;
import dev.sessionstore.Resolution;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.ToolCalls;
import dev.sessionstore.spi.ForwardingToolCalls;
import dev.sessionstore.spi.Interception;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Tool calls with arguments and results sealed. A resolve the adapter finds stale because the stored result is sealed
 * differently (another key since, another spelling) but holds the same status and plaintext is sent again with the
 * stored sealed result, and so comes back {@link Resolution.Replayed} as on a plain store.
 */
final class SealingToolCalls extends ForwardingToolCalls {

  private final Values values;

  SealingToolCalls(ToolCalls delegate, Values values) {
    super(delegate, Interception.none());
    this.values = values;
  }

  @Override
  public ToolCall save(ToolCallWrite call) {
    return values.open(super.save(values.seal(call)));
  }

  @Override
  public Optional<ToolCall> find(String sessionId, String toolCallId) {
    return super.find(sessionId, toolCallId).map(values::open);
  }

  @Override
  public List<ToolCall> pending(String sessionId) {
    return Values.map(super.pending(sessionId), values::open);
  }

  @Override
  public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
    Json plain = result == null ? Json.emptyObject() : result;
    Resolution resolution = super.resolve(sessionId, toolCallId, status,
        values.sealer().seal(sessionId, Values.TOOL_RESULT, plain));
    Optional<Json> stored = resolution.stale().flatMap(stale -> values.storedReplay(stale, status, plain));
    if (stored.isPresent()) {
      resolution = super.resolve(sessionId, toolCallId, status, stored.get());
    }
    return values.open(resolution);
  }

  @Override
  public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
    return super.await(sessionId, toolCallId, timeout).map(values::open);
  }
}
