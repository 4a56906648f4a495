package dev.sessionstore.chat.internal;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A weak identity map from message instances to their {@link Tag}: an entry lives as long as its instance is
 * reachable, and is found only by that very instance, never by an equal one. Thread-safe.
 */
public final class IdentityTags {

  private final Map<Key, Tag> tags = new ConcurrentHashMap<>();
  private final ReferenceQueue<Object> cleared = new ReferenceQueue<>();

  /** Tags {@code instance}, replacing its previous tag. */
  public void put(Object instance, Tag tag) {
    expunge();
    tags.put(new Key(instance, cleared), tag);
  }

  /** The tag of exactly this instance, if it has one. */
  public Optional<Tag> get(Object instance) {
    return Optional.ofNullable(tags.get(new Key(instance, null)));
  }

  /** How many tagged instances are still reachable or not yet expunged. */
  int size() {
    expunge();
    return tags.size();
  }

  private void expunge() {
    for (Reference<?> key = cleared.poll(); key != null; key = cleared.poll()) {
      tags.remove(key);
    }
  }

  private static final class Key extends WeakReference<Object> {

    private final int hash;

    Key(Object instance, ReferenceQueue<Object> queue) {
      super(instance, queue);
      this.hash = System.identityHashCode(instance);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object other) {
      if (this == other) {
        return true;
      }
      if (!(other instanceof Key key)) {
        return false;
      }
      Object instance = get();
      return instance != null && instance == key.get();
    }
  }
}
