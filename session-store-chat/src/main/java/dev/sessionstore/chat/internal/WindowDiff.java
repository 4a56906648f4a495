package dev.sessionstore.chat.internal;

import dev.sessionstore.Json;
import dev.sessionstore.chat.MessageCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The diff of a framework's message list against a conversation's window, in two pure steps: {@link #intent} (or
 * {@link #blind}) reads what the list asks relative to the window its caller saw, and {@link #plan} applies that
 * {@link Intent} on top of the window as it is now, as a {@link WindowPlan}.
 *
 * <h2>Why two steps</h2>
 * The intent depends only on the list and the snapshot its caller saw, never on the current log: re-applying it after
 * a seq conflict cannot turn another writer's messages into the caller's evictions or removals, because those only
 * ever name messages the caller was handed. Messages the caller was not handed are kept, wherever they are.
 *
 * <h2>The intent of a list built from a read</h2>
 * The reference is the newest snapshot among the list's tagged instances (or, when none is tagged, the calling
 * thread's last read of the conversation, which an empty read leaves as the only trace). The list's longest prefix of
 * seen messages, each once and in the order seen, is kept; the rest is added. Seen messages dropped before the last
 * kept one are evicted; seen messages dropped after it, or moved behind added messages, are removed. When the list
 * keeps none and adds some, or keeps only pinned messages ({@link MessageCodec#isPinned}: a system prompt), nothing
 * it saw is removed: all the rest is evicted (a window that moved past all it held but its system prompt).
 *
 * <h2>The intent of a blind list</h2>
 * A list nothing tags, from a thread that has not read the conversation, replaces the window as it is now (last writer
 * wins), matched by content: the longest prefix of the list that is a subsequence of the window ending at its last
 * message is kept (the rest of the window evicted), else the longest common prefix is kept and the rest of the window
 * removed, by the same rule as above.
 */
public final class WindowDiff {

  private WindowDiff() {
  }

  /**
   * The intent of {@code list} relative to the newest snapshot its tagged instances name, else {@code lastRead};
   * empty when neither exists (a blind list, see {@link #blind}).
   *
   * @param tagOf    the tag of an instance, if it has one
   * @param lastRead the calling thread's last read of the conversation not yet followed by a write, if any
   */
  public static <M> Optional<Intent<M>> intent(String conversationId, List<M> list, Function<M, Optional<Tag>> tagOf,
                                               Optional<Snapshot> lastRead, Predicate<M> pinned) {
    List<Tag> tags = new ArrayList<>(list.size());
    Snapshot reference = null;
    for (M message : list) {
      Tag tag = tagOf.apply(message).filter(t -> t.snapshot().conversationId().equals(conversationId)).orElse(null);
      tags.add(tag);
      if (tag != null && (reference == null || tag.snapshot().order() > reference.order())) {
        reference = tag.snapshot();
      }
    }
    if (reference == null) {
      if (lastRead.isEmpty()) {
        return Optional.empty();
      }
      reference = lastRead.get();
    }
    List<String> seen = reference.eventIds();
    Map<String, Integer> position = new HashMap<>();
    for (int i = 0; i < seen.size(); i++) {
      position.put(seen.get(i), i);
    }
    int[] positions = new int[list.size()];
    for (int i = 0; i < list.size(); i++) {
      positions[i] = tags.get(i) == null ? -1 : position.getOrDefault(tags.get(i).eventId(), -1);
    }
    int kept = 0;
    while (kept < list.size() && positions[kept] >= 0 && (kept == 0 || positions[kept] > positions[kept - 1])) {
      kept++;
    }
    while (kept > 0 && movedBefore(positions, kept, positions[kept - 1])) {
      kept--;
    }
    List<String> keptIds = new ArrayList<>(kept);
    for (int i = 0; i < kept; i++) {
      keptIds.add(seen.get(positions[i]));
    }
    boolean moves = false;
    for (int i = kept; i < list.size(); i++) {
      moves |= positions[i] >= 0 && !keptIds.contains(seen.get(positions[i]));
    }
    int last = kept == 0 ? -1 : positions[kept - 1];
    return Optional.of(intent(seen, keptIds, last, list, kept, moves, pinned));
  }

  /**
   * The intent of a blind list against the window as {@code stored} holds it now, matched by content (see the class
   * description).
   */
  public static <M> Intent<M> blind(List<M> list, StoredWindow<M> stored, MessageCodec<M> codec) {
    List<StoredMessage<M>> window = stored.messages();
    List<Json> windowPayloads = window.stream().map(StoredMessage::payload).toList();
    List<Json> payloads = list.stream().map(codec::payload).toList();
    List<String> seen = window.stream().map(StoredMessage::eventId).toList();
    int size = window.size();
    for (int kept = Math.min(list.size(), size); kept >= 1; kept--) {
      int[] matched = endingAtLast(windowPayloads, payloads, kept);
      if (matched != null) {
        List<String> keptIds = new ArrayList<>(kept);
        for (int index : matched) {
          keptIds.add(seen.get(index));
        }
        return intent(seen, keptIds, size - 1, list, kept, false, codec::isPinned);
      }
    }
    int prefix = 0;
    while (prefix < Math.min(list.size(), size) && sameContent(windowPayloads.get(prefix), payloads.get(prefix))) {
      prefix++;
    }
    return intent(seen, seen.subList(0, prefix), prefix - 1, list, prefix, false, codec::isPinned);
  }

  /**
   * The step that applies {@code intent} on top of the window as {@code stored} holds it now: messages the caller
   * did not see stay as they are (in the window or not), the kept ones stay, the evicted ones leave the window, the
   * log is cut at the first removed message of the window's contiguous part (removed pinned messages just leave the
   * window) and every message after the cut that is not removed is appended again, with a fresh id, before the added
   * messages. The window is then exactly the list (kept and added messages) with the unseen messages where they are:
   * no message is left out for what it is (a tool result whose call the window does not hold stays, as the list has
   * it).
   *
   * @param newIds   the event id of the list's element at an index, asked for the added ones only
   * @param freshIds ids for the messages a cut appends again
   */
  public static <M> WindowPlan<M> plan(Intent<M> intent, StoredWindow<M> stored, IntFunction<String> newIds,
                                       Supplier<String> freshIds, MessageCodec<M> codec) {
    Set<String> kept = new HashSet<>(intent.kept());
    Predicate<String> inWindow = id -> !intent.seen().contains(id) || kept.contains(id);
    OptionalLong cut = stored.tail().stream().filter(message -> intent.removed().contains(message.eventId()))
        .mapToLong(StoredMessage::seq).min();
    long next = (cut.isPresent() ? cut.getAsLong() - 1 : stored.lastSeq()) + 1;

    List<Slot<M>> pinned = new ArrayList<>();
    for (StoredMessage<M> message : stored.pinned()) {
      if (inWindow.test(message.eventId())) {
        pinned.add(new Slot<>(message.seq(), message.message(), true));
      }
    }
    List<Slot<M>> contiguous = new ArrayList<>();
    List<WindowPlan.Append<M>> appended = new ArrayList<>();
    for (StoredMessage<M> message : stored.tail()) {
      boolean member = inWindow.test(message.eventId());
      if (cut.isEmpty() || message.seq() < cut.getAsLong()) {
        contiguous.add(new Slot<>(message.seq(), message.message(), member));
      } else if (!intent.removed().contains(message.eventId())) {
        appended.add(new WindowPlan.Append<>(freshIds.get(), message.type(), message.payload(), message.message(), -1));
        contiguous.add(new Slot<>(next++, message.message(), member));
      }
    }
    for (Intent.Added<M> added : intent.added()) {
      M message = added.message();
      appended.add(new WindowPlan.Append<>(newIds.apply(added.listIndex()), codec.eventType(message),
          codec.payload(message), message, added.listIndex()));
      contiguous.add(new Slot<>(next++, message, true));
    }
    long afterAll = next;

    // the contiguous part: the longest run of window members ending the log; members before it are pinned
    int from = contiguous.size();
    while (from > 0 && contiguous.get(from - 1).member()) {
      from--;
    }
    for (int i = 0; i < from; i++) {
      if (contiguous.get(i).member()) {
        pinned.add(contiguous.get(i));
      }
    }
    List<Long> pinnedSeqs = pinned.stream().map(Slot::seq).sorted().toList();
    WindowState nextState;
    if (from == contiguous.size()) {
      nextState = WindowState.growing(afterAll, pinnedSeqs);
    } else if (contiguous.stream().anyMatch(slot -> !slot.member())
        && pinned.size() + contiguous.size() - from == stored.messages().size()) {
      // it evicted as many as it added: the window slides, and the next write that does the same leaves it as it is
      nextState = WindowState.sliding(contiguous.get(from).seq(), contiguous.size() - from, pinnedSeqs);
    } else {
      nextState = WindowState.growing(contiguous.get(from).seq(), pinnedSeqs);
    }
    List<Long> all = new ArrayList<>();
    stored.pinned().forEach(message -> all.add(message.seq()));
    contiguous.forEach(slot -> all.add(slot.seq()));
    boolean record = cut.isPresent() || !stored.state().select(all).equals(nextState.select(all));
    return new WindowPlan<>(cut, appended, record ? Optional.of(nextState) : Optional.empty());
  }

  private static <M> Intent<M> intent(List<String> seen, List<String> keptIds, int lastKept, List<M> list, int kept,
                                      boolean moves, Predicate<M> pinned) {
    Set<String> keptSet = new HashSet<>(keptIds);
    boolean adds = kept < list.size();
    // a window that kept only its system prompt moved past the rest (an empty list still removes the window)
    boolean evictAll = !moves && (adds || kept > 0) && list.subList(0, kept).stream().allMatch(pinned);
    Set<String> removed = new HashSet<>();
    if (!evictAll) {
      for (int p = lastKept + 1; p < seen.size(); p++) {
        if (!keptSet.contains(seen.get(p))) {
          removed.add(seen.get(p));
        }
      }
    }
    List<Intent.Added<M>> added = new ArrayList<>();
    for (int i = kept; i < list.size(); i++) {
      added.add(new Intent.Added<>(i, list.get(i)));
    }
    return new Intent<>(new HashSet<>(seen), keptIds, removed, added);
  }

  /** Whether an element at or after {@code kept} is a seen message placed before position {@code last}. */
  private static boolean movedBefore(int[] positions, int kept, int last) {
    for (int i = kept; i < positions.length; i++) {
      if (positions[i] >= 0 && positions[i] < last) {
        return true;
      }
    }
    return false;
  }

  /**
   * The window indexes {@code list[0..kept)} match in order, the last one matching the window's last message; null
   * when they do not.
   */
  private static int[] endingAtLast(List<Json> window, List<Json> list, int kept) {
    int[] matched = new int[kept];
    int w = window.size() - 1;
    if (!sameContent(window.get(w), list.get(kept - 1))) {
      return null;
    }
    matched[kept - 1] = w;
    for (int i = kept - 2; i >= 0; i--) {
      w--;
      while (w >= 0 && !sameContent(window.get(w), list.get(i))) {
        w--;
      }
      if (w < 0) {
        return null;
      }
      matched[i] = w;
    }
    return matched;
  }

  /** Equal documents; the text comparison first, as it is cheap and decides most cases. */
  private static boolean sameContent(Json stored, Json candidate) {
    return stored.text().equals(candidate.text()) || stored.equals(candidate);
  }

  private record Slot<M>(long seq, M message, boolean member) {
  }
}
