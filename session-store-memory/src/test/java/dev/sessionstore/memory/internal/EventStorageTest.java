package dev.sessionstore.memory.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.SearchTerm;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The search index of a storage is built by the first search after appends, not by the appends: searches must see
 * exactly the events held when they run, whatever appends, cuts and payload replacements came before.
 */
class EventStorageTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

  private final EventStorage storage = new EventStorage(1);

  private void add(String text) {
    long seq = storage.lastSeq() + 1;
    storage.add(new Event("s", seq, "e" + seq, "message", null, null, null, payload(text), NOW));
  }

  private static Json payload(String text) {
    return Json.of("{\"text\":\"" + text + "\"}");
  }

  private List<Long> search(String word, boolean prefix) {
    List<Event> found = new ArrayList<>();
    storage.search(List.of(new SearchTerm(List.of(word), prefix)), 1, Long.MAX_VALUE, "s", found);
    return found.stream().map(Event::seq).toList();
  }

  @Test
  void findsEventsAppendedBeforeAndAfterAPreviousSearch() {
    add("apple pie");
    assertThat(search("apple", false)).containsExactly(1L);
    add("apple tart");
    add("plum");

    assertThat(search("apple", false)).containsExactly(1L, 2L);
    assertThat(search("pl", true)).containsExactly(3L);
  }

  @Test
  void forgetsCutEventsWhetherOrNotTheyWereIndexed() {
    add("apple");
    add("apple");
    assertThat(search("apple", false)).containsExactly(1L, 2L);
    add("apple");
    storage.cutFrom(2);
    add("pear");

    assertThat(search("apple", false)).containsExactly(1L);
    assertThat(search("pear", false)).containsExactly(2L);
  }

  @Test
  void findsAReplacedPayloadByItsNewWordsOnly() {
    add("apple");
    assertThat(search("apple", false)).containsExactly(1L);
    add("cherry");
    assertThat(storage.replacePayload(1, payload("apple"), payload("grape"))).isTrue();
    assertThat(storage.replacePayload(2, payload("cherry"), payload("melon"))).isTrue();

    assertThat(search("apple", false)).isEmpty();
    assertThat(search("cherry", false)).isEmpty();
    assertThat(search("grape", false)).containsExactly(1L);
    assertThat(search("melon", false)).containsExactly(2L);
  }
}
