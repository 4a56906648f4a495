package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.ForkOrigin;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A store whose fork checks a batch's ids against its own events only: an event of the shared prefix appended again
 * is stored anew after the last seq instead of being a replay.
 */
class BrokenForkReplayMissesPrefixIdsTest extends BrokenStoreTest {

  BrokenForkReplayMissesPrefixIdsTest() {
    super(SessionStoreConformance.Forks.class, "replaysMatchEveryAncestorsShare", "seqs of a replay");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    ForkTracker[] forks = new ForkTracker[1];
    return ForwardingStore.of(correctStore(clock))
        .withSessions(sessions -> forks[0] = new ForkTracker(sessions))
        .withEvents(log -> new ForwardingEventLog(log) {
          @Override
          public List<Event> appendAll(String sessionId, List<NewEvent> events) {
            Optional<ForkOrigin> origin = forks[0].origin(sessionId);
            if (origin.isEmpty()) {
              return delegate.appendAll(sessionId, events);
            }
            List<NewEvent> renamed = new ArrayList<>();
            for (NewEvent event : events) {
              boolean shared = delegate.find(sessionId, event.id())
                  .filter(stored -> stored.seq() <= origin.get().seq()).isPresent();
              renamed.add(shared ? event.withId(event.id() + "~") : event);
            }
            List<Event> stored = new ArrayList<>();
            List<Event> appended = delegate.appendAll(sessionId, renamed);
            for (int i = 0; i < appended.size(); i++) {
              Event event = appended.get(i);
              stored.add(new Event(event.sessionId(), event.seq(), events.get(i).id(), event.type(), event.runId(),
                  event.agentId(), event.parentId(), event.payload(), event.timestamp()));
            }
            return stored;
          }
        });
  }
}
