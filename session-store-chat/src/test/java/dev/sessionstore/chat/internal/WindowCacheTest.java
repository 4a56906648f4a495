package dev.sessionstore.chat.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WindowCacheTest {

  private static StoredWindow<String> at(long lastSeq) {
    return new StoredWindow<>(WindowState.WHOLE_LOG, List.of(), List.of(), lastSeq);
  }

  @Test
  @DisplayName("an offer older than the entry in place is ignored, a newer one replaces it")
  void newerStampWins() {
    WindowCache<String> cache = new WindowCache<>(10);
    long older = cache.stamp();
    long newer = cache.stamp();
    cache.offer("c", at(5), newer);
    cache.offer("c", at(3), older);
    assertThat(cache.get("c")).hasValueSatisfying(window -> assertThat(window.lastSeq()).isEqualTo(5));
    cache.offer("c", at(7), cache.stamp());
    assertThat(cache.get("c")).hasValueSatisfying(window -> assertThat(window.lastSeq()).isEqualTo(7));
  }

  @Test
  @DisplayName("after forget, no window from a read or write that began before it comes back")
  void forgetOutranksEarlierViews() {
    WindowCache<String> cache = new WindowCache<>(10);
    long before = cache.stamp();
    cache.forget("c");
    cache.offer("c", at(4), before);
    assertThat(cache.get("c")).isEmpty();
    cache.offer("c", at(4), cache.stamp());
    assertThat(cache.get("c")).isPresent();
  }

  @Test
  @DisplayName("the least recently used conversation is dropped past the capacity, and views older than it stay out")
  void boundedByCount() {
    WindowCache<String> cache = new WindowCache<>(2);
    long early = cache.stamp();
    cache.offer("a", at(1), cache.stamp());
    cache.offer("b", at(1), cache.stamp());
    cache.get("a");
    cache.offer("c", at(1), cache.stamp());
    assertThat(cache.get("b")).isEmpty();
    assertThat(cache.get("a")).isPresent();
    assertThat(cache.get("c")).isPresent();
    cache.offer("b", at(1), early);
    assertThat(cache.get("b")).isEmpty();
  }

  @Test
  @DisplayName("a cache of capacity 0 keeps nothing")
  void capacityZero() {
    WindowCache<String> cache = new WindowCache<>(0);
    cache.offer("a", at(1), cache.stamp());
    assertThat(cache.get("a")).isEmpty();
  }
}
