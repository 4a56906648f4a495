package dev.sessionstore.chat.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionstore.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which messages of a conversation's log form its window: every message event with {@code seq >= start}, preceded
 * by the {@code pinned} ones before it (messages a framework keeps while evicting their neighbours, such as a
 * system prompt). Stored as the payload of a window event, the newest of which is in force.
 *
 * @param start  the first seq of the window's contiguous part
 * @param pinned seqs below {@code start} still in the window, ascending
 */
public record WindowState(long start, List<Long> pinned) {

  /** The window of a conversation without a window event: its whole log. */
  public static final WindowState WHOLE_LOG = new WindowState(1, List.of());

  public WindowState {
    pinned = List.copyOf(pinned);
  }

  /** The payload of the window event recording this state. */
  public Json toJson() {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("start", start);
    document.put("pinned", pinned);
    return Json.from(document);
  }

  /** The state recorded by a window event's payload. */
  public static WindowState fromJson(Json payload) {
    JsonNode tree = payload.tree();
    List<Long> pinned = new ArrayList<>();
    tree.path("pinned").forEach(seq -> pinned.add(seq.asLong()));
    return new WindowState(tree.path("start").asLong(1), pinned);
  }
}
