package dev.sessionstore.springai.alibaba;

import dev.sessionstore.Chapter;
import dev.sessionstore.EventPage;
import dev.sessionstore.Revival;
import dev.sessionstore.SessionStore;
import dev.sessionstore.spi.ForwardingSessionStore;
import dev.sessionstore.spi.Interception;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Counts, through the store's API on any adapter, the calls a saver makes and the records (events, summaries,
 * checkpoints, sessions) those calls return: what a saver reads, whatever the backend. Thread-safe.
 */
final class ReadCounter implements Interception {

  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong records = new AtomicLong();

  /** {@code store} with every call through it counted; closing it closes {@code store}. */
  SessionStore wrap(SessionStore store) {
    return new ForwardingSessionStore(store, this) { };
  }

  /** The store calls made so far. */
  long calls() {
    return calls.get();
  }

  /** The records the calls so far returned. */
  long records() {
    return records.get();
  }

  @Override
  public <T> T around(String operation, String sessionId, Supplier<T> call) {
    calls.incrementAndGet();
    T result = call.get();
    records.addAndGet(count(result));
    return result;
  }

  private static long count(Object result) {
    if (result instanceof EventPage page) {
      return page.items().size();
    }
    if (result instanceof Revival revival) {
      return revival.events().size() + (revival.summary().isPresent() ? 1 : 0);
    }
    if (result instanceof Chapter chapter) {
      return chapter.events().size() + 1 + (chapter.previous().isPresent() ? 1 : 0);
    }
    if (result instanceof Optional<?> optional) {
      return optional.map(ReadCounter::count).orElse(0L);
    }
    if (result instanceof Collection<?> collection) {
      return collection.size();
    }
    return result == null || result instanceof Number || result instanceof Boolean ? 0 : 1;
  }
}
