package dev.sessionstore.conformance.broken;

import dev.sessionstore.ForkOrigin;
import dev.sessionstore.Session;
import dev.sessionstore.Sessions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Sessions that remember every fork they made, for broken stores whose bug is in what a fork shares. */
class ForkTracker extends ForwardingSessions {

  private final Map<String, ForkOrigin> origins = new ConcurrentHashMap<>();

  ForkTracker(Sessions delegate) {
    super(delegate);
  }

  @Override
  public Session fork(String sessionId, long atSeq) {
    return remember(delegate.fork(sessionId, atSeq));
  }

  @Override
  public Session fork(String sessionId, long atSeq, String newSessionId) {
    return remember(delegate.fork(sessionId, atSeq, newSessionId));
  }

  private Session remember(Session fork) {
    origins.put(fork.id(), fork.forkOrigin().orElseThrow());
    return fork;
  }

  /** Where {@code sessionId} was forked from, if it is a fork. */
  Optional<ForkOrigin> origin(String sessionId) {
    return Optional.ofNullable(origins.get(sessionId));
  }

  /** The forks made of {@code sessionId}. */
  List<String> forksOf(String sessionId) {
    return origins.entrySet().stream().filter(entry -> entry.getValue().sessionId().equals(sessionId))
        .map(Map.Entry::getKey).toList();
  }
}
