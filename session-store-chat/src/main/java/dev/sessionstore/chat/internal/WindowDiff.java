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

/**
 * The diff of a framework's message list against the stored window, as a {@link WindowPlan}. A pure function of its
 * inputs.
 *
 * <h2>Design</h2>
 * <ol>
 *   <li><b>Matching.</b> Each message of the list is matched to a stored window message: by identity first (the
 *       instance carries a {@link Tag} naming its event), else by content (its payload equals a stored payload).
 *       Matching walks both lists forward, so the matched seqs ascend; the longest such prefix of the list is the
 *       part the log already holds, the rest is new. A tagged instance whose event has left the window since the
 *       caller read it (another writer evicted or removed it) is skipped, never written again.</li>
 *   <li><b>The caller's view.</b> The highest {@link Tag#view()} among the list's tagged instances is how far the
 *       log reached when the caller read it. Stored messages past it were written concurrently by another writer:
 *       the caller cannot have meant to remove them, so they are kept, and never matched by content. An untagged
 *       list saw the whole log.</li>
 *   <li><b>Cut or not.</b> A window message the caller saw, after the last matched one and not in the list, was
 *       removed by the caller (an edit): the log is cut at the first such message and the rest of the list is
 *       appended, followed by the concurrently written messages the cut removed. Otherwise nothing is cut and the
 *       new messages are appended: window messages missing before the last matched one were evicted, and stay in
 *       the log.</li>
 *   <li><b>The new window.</b> Its contiguous part starts at the earliest seq from which every window message up to
 *       the last matched one is kept; matched messages before it stay pinned.</li>
 *   <li><b>The orphan rule.</b> The window never starts with a tool result whose call it does not hold: a pinned
 *       tool result answering calls no earlier pinned message asks for is unpinned, and the start moves past
 *       leading tool results whose calls the pinned messages do not ask for. Those messages stay in the log.</li>
 * </ol>
 */
public final class WindowDiff {

  private WindowDiff() {
  }

  /**
   * The plan that makes the window of {@code conversationId} equal to {@code list}, against {@code stored}.
   *
   * @param newIds   an event id for each element of {@code list}, used for the elements that are new
   * @param tagOf    the tag of an instance, if it has one
   * @param readView how far the log reached when the calling thread last read this conversation, used when no
   *                 element of the list is tagged; empty when the thread never read it
   */
  public static <M> WindowPlan<M> plan(String conversationId, StoredWindow<M> stored, List<M> list,
                                       List<String> newIds, MessageCodec<M> codec,
                                       Function<M, Optional<Tag>> tagOf, OptionalLong readView) {
    List<StoredMessage<M>> window = stored.messages();
    Map<String, StoredMessage<M>> byId = new HashMap<>();
    window.forEach(message -> byId.put(message.eventId(), message));

    List<Optional<Tag>> tags = new ArrayList<>(list.size());
    long view = -1;
    for (M message : list) {
      Optional<Tag> tag = tagOf.apply(message).filter(t -> t.conversationId().equals(conversationId));
      tags.add(tag);
      if (tag.isPresent()) {
        view = Math.max(view, tag.get().view());
      }
    }
    if (view < 0 && readView.isPresent()) {
      view = readView.getAsLong();
    }
    long seen = view < 0 ? Long.MAX_VALUE : view;
    List<StoredMessage<M>> candidates = window.stream().filter(message -> message.seq() <= seen).toList();

    // 1. The longest prefix of the list the window holds, in ascending seq order.
    Set<Long> matched = new HashSet<>();
    List<StoredMessage<M>> matchedInOrder = new ArrayList<>();
    List<Json> payloads = new ArrayList<>(list.size());
    int prefix = 0;
    long last = 0;
    int cursor = 0;
    for (int i = 0; i < list.size(); i++) {
      M message = list.get(i);
      StoredMessage<M> match = null;
      if (tags.get(i).isPresent()) {
        StoredMessage<M> tagged = byId.get(tags.get(i).get().eventId());
        if (tagged == null) {
          // read by the caller, since evicted or removed by another writer: not written again
          payloads.add(null);
          prefix++;
          continue;
        }
        if (tagged.seq() > last && tagged.seq() <= seen) {
          match = tagged;
          cursor = candidates.indexOf(tagged) + 1;
        }
        payloads.add(null);
      } else {
        Json payload = codec.payload(message);
        payloads.add(payload);
        for (int c = cursor; c < candidates.size(); c++) {
          if (sameContent(candidates.get(c).payload(), payload)) {
            match = candidates.get(c);
            cursor = c + 1;
            break;
          }
        }
      }
      if (match == null) {
        break;
      }
      matched.add(match.seq());
      matchedInOrder.add(match);
      last = match.seq();
      prefix++;
    }
    final long lastMatched = last;

    // 2. Cut where the caller removed a message it saw after the last matched one.
    List<StoredMessage<M>> tail = stored.tail();
    OptionalLong cut = tail.stream()
        .filter(message -> message.seq() > lastMatched && message.seq() <= seen && !matched.contains(message.seq()))
        .mapToLong(StoredMessage::seq).min();
    List<StoredMessage<M>> unseen = tail.stream().filter(message -> message.seq() > seen).toList();
    long base = cut.isPresent() ? cut.getAsLong() - 1 : stored.lastSeq();

    List<WindowPlan.Append<M>> appended = new ArrayList<>();
    for (int i = prefix; i < list.size(); i++) {
      M message = list.get(i);
      Json payload = payloads.size() > i && payloads.get(i) != null ? payloads.get(i) : codec.payload(message);
      appended.add(new WindowPlan.Append<>(newIds.get(i), codec.eventType(message), payload, message, i));
    }
    if (cut.isPresent()) {
      for (StoredMessage<M> message : unseen) {
        appended.add(new WindowPlan.Append<>(message.eventId(), message.type(), message.payload(), message.message(),
            -1));
      }
    }

    // 3. The new window: its contiguous start, the pinned messages before it, and what follows.
    long start = -1;
    for (int t = tail.size() - 1; t >= 0; t--) {
      StoredMessage<M> message = tail.get(t);
      if (message.seq() > lastMatched) {
        continue;
      }
      if (!matched.contains(message.seq())) {
        break;
      }
      start = message.seq();
    }
    List<Slot<M>> region = new ArrayList<>();
    for (StoredMessage<M> message : tail) {
      boolean kept = cut.isPresent()
          ? start >= 0 && message.seq() >= start && message.seq() <= lastMatched
          : message.seq() >= (start >= 0 ? start : lastMatched + 1);
      if (kept) {
        region.add(new Slot<>(message.seq(), message.message()));
      }
    }
    for (int a = 0; a < appended.size(); a++) {
      region.add(new Slot<>(base + 1 + a, appended.get(a).message()));
    }
    long afterAll = base + appended.size() + 1;
    final long contiguousFrom = start;
    List<StoredMessage<M>> pinned = new ArrayList<>(matchedInOrder.stream()
        .filter(message -> contiguousFrom < 0 || message.seq() < contiguousFrom).toList());
    if (start < 0) {
      start = region.isEmpty() ? afterAll : region.get(0).seq();
    }

    // 4. The orphan rule.
    Set<String> asked = new HashSet<>();
    List<Long> pinnedSeqs = new ArrayList<>();
    for (StoredMessage<M> message : pinned) {
      if (orphaned(codec, message.message(), asked)) {
        continue;
      }
      asked.addAll(codec.toolCallIds(message.message()));
      pinnedSeqs.add(message.seq());
    }
    int first = 0;
    while (first < region.size() && orphaned(codec, region.get(first).message(), asked)) {
      first++;
    }
    if (first > 0) {
      start = first < region.size() ? region.get(first).seq() : afterAll;
    }

    WindowState next = new WindowState(start, pinnedSeqs);
    boolean record = cut.isPresent() || !next.equals(stored.state()) && !(appended.isEmpty() && sameWindow(stored,
        next));
    return new WindowPlan<>(cut, appended, record ? Optional.of(next) : Optional.empty());
  }

  /** Whether {@code next} selects exactly the stored window's messages (no event is needed to say so). */
  private static <M> boolean sameWindow(StoredWindow<M> stored, WindowState next) {
    List<Long> current = stored.messages().stream().map(StoredMessage::seq).toList();
    List<Long> selected = new ArrayList<>(next.pinned());
    stored.tail().stream().map(StoredMessage::seq).filter(seq -> seq >= next.start()).forEach(selected::add);
    return current.equals(selected);
  }

  private static <M> boolean orphaned(MessageCodec<M> codec, M message, Set<String> asked) {
    List<String> answers = codec.toolResultIds(message);
    return !answers.isEmpty() && !asked.containsAll(answers);
  }

  private static boolean sameContent(Json stored, Json candidate) {
    return stored.text().equals(candidate.text()) || stored.equals(candidate);
  }

  private record Slot<M>(long seq, M message) {
  }
}
