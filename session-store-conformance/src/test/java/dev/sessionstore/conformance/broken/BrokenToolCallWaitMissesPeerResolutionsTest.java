package dev.sessionstore.conformance.broken;

import dev.sessionstore.Capability;
import dev.sessionstore.Json;
import dev.sessionstore.Resolution;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store that declares cross-process wake-ups and shares its data with its peer, but whose tool-call waits are
 * woken only by resolutions made through the same instance: as when a resolution sends no notification other
 * instances receive. A resolution through the peer is seen only once the wait times out.
 */
class BrokenToolCallWaitMissesPeerResolutionsTest extends BrokenStoreTest {

  BrokenToolCallWaitMissesPeerResolutionsTest() {
    super(SessionStoreConformance.SharedBackend.class, "aToolCallWaitWakesOnAResolutionThroughThePeer",
        "what the waiter on the first instance got");
  }

  /** The data each broken first instance shares with its peer. */
  private final Map<SessionStore, SessionStore> sharedOf = new ConcurrentHashMap<>();

  @Override
  protected SessionStore brokenStore(Clock clock) {
    SessionStore shared = correctStore(clock);
    Object local = new Object();
    SessionStore first = ForwardingStore.of(shared).withToolCalls(calls -> new ForwardingToolCalls(calls) {
      @Override
      public Resolution resolve(String sessionId, String toolCallId, ToolCallStatus status, Json result) {
        Resolution resolution = delegate.resolve(sessionId, toolCallId, status, result);
        synchronized (local) {
          local.notifyAll();
        }
        return resolution;
      }

      @Override
      public Optional<ToolCall> await(String sessionId, String toolCallId, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        synchronized (local) {
          while (true) {
            Optional<ToolCall> call = delegate.find(sessionId, toolCallId)
                .filter(found -> found.status() != ToolCallStatus.PENDING);
            long left = end - System.nanoTime();
            if (call.isPresent() || left <= 0) {
              return call.filter(found -> left > 0);
            }
            try {
              local.wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return Optional.empty();
            }
          }
        }
      }
    });
    SessionStore broken = declaring(first, Capability.CROSS_PROCESS_WAKEUP);
    sharedOf.put(broken, shared);
    return broken;
  }

  /** The shared data seen through a plain instance, whose resolutions do not reach the first one's waiters. */
  @Override
  protected SessionStore brokenPeer(SessionStore first, Clock clock) {
    return declaring(sharedOf.get(first), Capability.CROSS_PROCESS_WAKEUP);
  }
}
