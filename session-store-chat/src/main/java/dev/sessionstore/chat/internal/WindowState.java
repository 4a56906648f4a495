package dev.sessionstore.chat.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionstore.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.ToLongFunction;

/**
 * Which messages of a conversation's log form its window: the {@code pinned} ones (messages a framework keeps while
 * evicting their neighbours, such as a system prompt), then its tail: of the message events with
 * {@code seq >= start}, the newest {@code size} (every one when {@code size} is empty). Stored as the payload of a
 * window event, the newest of which is in force.
 *
 * <p>Two shapes of the same selection, so that the common writes leave the state as it is and write no window event:
 * a window that grows (a memory not yet full) keeps "every message from {@code start}", and a window that slides (a
 * full memory that evicts one message for each it adds) keeps "the newest {@code size}".
 *
 * @param start  the lowest seq the tail may hold; above every pinned seq
 * @param size   how many of the newest message events from {@code start} the tail holds, or empty for all of them
 * @param pinned seqs below {@code start} still in the window, ascending
 */
public record WindowState(long start, OptionalInt size, List<Long> pinned) {

  /** The window of a conversation without a window event: its whole log. */
  public static final WindowState WHOLE_LOG = growing(1, List.of());

  public WindowState {
    pinned = List.copyOf(pinned);
  }

  /** The window of every message from {@code start}, after the {@code pinned} ones. */
  public static WindowState growing(long start, List<Long> pinned) {
    return new WindowState(start, OptionalInt.empty(), pinned);
  }

  /** The window of the newest {@code size} messages from {@code start}, after the {@code pinned} ones. */
  public static WindowState sliding(long start, int size, List<Long> pinned) {
    return new WindowState(start, OptionalInt.of(size), pinned);
  }

  /**
   * The tail this state selects of {@code messages}, ascending by seq and holding every message event of the log
   * from {@code start} on (the pinned ones and older may be there too).
   */
  public <T> List<T> tail(List<T> messages, ToLongFunction<T> seqOf) {
    int from = messages.size();
    while (from > 0 && seqOf.applyAsLong(messages.get(from - 1)) >= start) {
      from--;
    }
    if (size.isPresent()) {
      from = Math.max(from, messages.size() - size.getAsInt());
    }
    return messages.subList(from, messages.size());
  }

  /**
   * The seqs this state selects of {@code seqs}, ascending and holding every message event's seq from {@code start}
   * on: the pinned ones among them, then the tail.
   */
  public List<Long> select(List<Long> seqs) {
    List<Long> selected = new ArrayList<>();
    seqs.stream().filter(seq -> seq < start && pinned.contains(seq)).forEach(selected::add);
    selected.addAll(tail(seqs, Long::longValue));
    return selected;
  }

  /** The payload of the window event recording this state. */
  public Json toJson() {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("start", start);
    size.ifPresent(newest -> document.put("size", newest));
    document.put("pinned", pinned);
    return Json.from(document);
  }

  /** The state recorded by a window event's payload. */
  public static WindowState fromJson(Json payload) {
    JsonNode tree = payload.tree();
    List<Long> pinned = new ArrayList<>();
    tree.path("pinned").forEach(seq -> pinned.add(seq.asLong()));
    JsonNode size = tree.path("size");
    return new WindowState(tree.path("start").asLong(1),
        size.isNumber() ? OptionalInt.of(size.asInt()) : OptionalInt.empty(), pinned);
  }
}
