package dev.sessionstore.chat.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.chat.MessageCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The diff as a pure function: each case builds a log, hands a caller a snapshot of its window, lets other writers
 * change the log, and checks the window and history after the caller's list is applied on top.
 */
class WindowDiffTest {

  private static final String C = "c";

  private final Log log = new Log();
  private final Map<Msg, Tag> tags = new IdentityHashMap<>();
  private final AtomicLong orders = new AtomicLong();

  @Test
  @DisplayName("a list that keeps the window and adds a turn appends only the turn")
  void append() {
    log.add("a", "b");
    List<Msg> read = read();

    WindowPlan<Msg> plan = apply(List.of(read.get(0), read.get(1), msg("c")), Optional.empty());

    assertThat(plan.cutFrom()).isEmpty();
    assertThat(plan.appended()).extracting(WindowPlan.Append::listIndex).containsExactly(2);
    assertThat(plan.window()).isEmpty();
    assertThat(log.window()).containsExactly("a", "b", "c");
  }

  @Test
  @DisplayName("dropping from the front evicts: the window moves, the history stays")
  void evictFront() {
    log.add("a", "b", "c");
    List<Msg> read = read();

    apply(List.of(read.get(1), read.get(2), msg("d")), Optional.empty());

    assertThat(log.window()).containsExactly("b", "c", "d");
    assertThat(log.history()).containsExactly("a", "b", "c", "d");
  }

  @Test
  @DisplayName("a window evicting as many as it adds is recorded once as its newest k, then slides writing no record")
  void slideKeepsTheRecord() {
    log.add("a", "b", "c");
    List<Msg> read = read();

    WindowPlan<Msg> first = apply(List.of(read.get(1), read.get(2), msg("d")), Optional.empty());
    assertThat(first.window()).hasValue(WindowState.sliding(2, 3, List.of()));

    for (String next : List.of("e", "f", "g")) {
      List<Msg> window = read();
      WindowPlan<Msg> slide = apply(List.of(window.get(1), window.get(2), msg(next)), Optional.empty());
      assertThat(slide.window()).as("the record after adding %s", next).isEmpty();
      assertThat(slide.appended()).hasSize(1);
    }
    assertThat(log.window()).containsExactly("e", "f", "g");
    assertThat(log.history()).containsExactly("a", "b", "c", "d", "e", "f", "g");
  }

  @Test
  @DisplayName("an eviction that changes the window's size is recorded from a seq, and growth after it writes nothing")
  void resizeRecordsFromASeq() {
    log.add("a", "b", "c", "d");
    List<Msg> read = read();

    WindowPlan<Msg> shrink = apply(List.of(read.get(2), read.get(3), msg("e")), Optional.empty());
    assertThat(shrink.window()).hasValue(WindowState.growing(3, List.of()));
    List<Msg> window = read();
    WindowPlan<Msg> grow = apply(List.of(window.get(0), window.get(1), window.get(2), msg("f")), Optional.empty());

    assertThat(grow.window()).isEmpty();
    assertThat(log.window()).containsExactly("c", "d", "e", "f");
  }

  @Test
  @DisplayName("a window state reads back from its window event's payload, both shapes")
  void stateRoundTrips() {
    for (WindowState state : List.of(WindowState.growing(7, List.of(1L, 3L)), WindowState.sliding(9, 20, List.of(2L)),
        WindowState.WHOLE_LOG)) {
      assertThat(WindowState.fromJson(state.toJson())).isEqualTo(state);
    }
    assertThat(WindowState.sliding(3, 2, List.of(1L)).select(List.of(1L, 2L, 3L, 4L, 5L)))
        .containsExactly(1L, 4L, 5L);
  }

  @Test
  @DisplayName("dropping in between evicts, the messages before stay pinned")
  void evictBetween() {
    log.add("sys", "a", "b");
    List<Msg> read = read();

    WindowPlan<Msg> plan = apply(List.of(read.get(0), read.get(2), msg("x")), Optional.empty());

    assertThat(plan.window().orElseThrow().pinned()).containsExactly(1L);
    assertThat(log.window()).containsExactly("sys", "b", "x");
    assertThat(log.history()).containsExactly("sys", "a", "b", "x");
  }

  @Test
  @DisplayName("dropping after the last kept message removes: the log is cut there and the rest appended")
  void editCuts() {
    log.add("a", "b", "c");
    List<Msg> read = read();

    WindowPlan<Msg> plan = apply(List.of(read.get(0), msg("x")), Optional.empty());

    assertThat(plan.cutFrom()).hasValue(2);
    assertThat(log.window()).containsExactly("a", "x");
    assertThat(log.history()).containsExactly("a", "x");
  }

  @Test
  @DisplayName("a reordered list cuts at the first moved message and appends copies")
  void reorderCuts() {
    log.add("a", "b");
    List<Msg> read = read();

    WindowPlan<Msg> plan = apply(List.of(read.get(1), read.get(0)), Optional.empty());

    assertThat(plan.cutFrom()).hasValue(1);
    assertThat(log.window()).containsExactly("b", "a");
    assertThat(log.history()).containsExactly("b", "a");
  }

  @Test
  @DisplayName("messages other writers added after the read are kept, before the caller's, which stay contiguous")
  void concurrentAppendsKept() {
    log.add("a", "b");
    List<Msg> read = read();
    log.add("o1", "o2");

    apply(List.of(read.get(1), msg("n1"), msg("n2")), Optional.empty());

    assertThat(log.window()).containsExactly("b", "o1", "o2", "n1", "n2");
    assertThat(log.history()).containsExactly("a", "b", "o1", "o2", "n1", "n2");
  }

  @Test
  @DisplayName("an edit after another writer's append cuts only what the caller saw and appends the other's again")
  void concurrentAppendSurvivesCut() {
    log.add("a", "b", "c");
    List<Msg> read = read();
    log.add("o");

    WindowPlan<Msg> plan = apply(List.of(read.get(0), msg("x")), Optional.empty());

    assertThat(plan.cutFrom()).hasValue(2);
    assertThat(plan.appended()).extracting(WindowPlan.Append::listIndex).containsExactly(-1, 1);
    assertThat(log.window()).containsExactly("a", "o", "x");
    assertThat(log.history()).containsExactly("a", "o", "x");
  }

  @Test
  @DisplayName("a message another writer evicted stays evicted, though the caller's list still holds it")
  void concurrentEvictionWins() {
    log.add("a", "b", "c");
    List<Msg> read = read();
    log.evictBefore(2);
    log.add("o");

    apply(List.of(read.get(0), read.get(1), read.get(2), msg("n")), Optional.empty());

    assertThat(log.window()).containsExactly("b", "c", "o", "n");
    assertThat(log.history()).containsExactly("a", "b", "c", "o", "n");
  }

  @Test
  @DisplayName("an untagged list after an empty read keeps what others wrote since (the lost-window regression)")
  void emptyReadKeepsOthers() {
    read();
    Snapshot emptyRead = lastSnapshot;
    log.add("o1", "o2", "o3", "o4");

    WindowPlan<Msg> plan = apply(List.of(msg("n")), Optional.of(emptyRead));

    assertThat(plan.cutFrom()).isEmpty();
    assertThat(log.window()).containsExactly("o1", "o2", "o3", "o4", "n");
  }

  @Test
  @DisplayName("a stale view never widens what the caller saw: only the events it was handed count")
  void viewDoesNotWidenTheSeenSet() {
    log.add("a");
    Snapshot stale = new Snapshot(C, List.of(), 4, orders.incrementAndGet());
    log.add("b", "c", "d");

    apply(List.of(msg("n")), Optional.of(stale));

    assertThat(log.history()).containsExactly("a", "b", "c", "d", "n");
    assertThat(log.window()).containsExactly("a", "b", "c", "d", "n");
  }

  @Test
  @DisplayName("a list that keeps nothing it saw but adds messages evicts all it saw")
  void keepNothingEvictsAll() {
    log.add("a");
    List<Msg> read = read();

    apply(List.of(msg("b")), Optional.of(lastSnapshot));

    assertThat(read).hasSize(1);
    assertThat(log.window()).containsExactly("b");
    assertThat(log.history()).containsExactly("a", "b");
  }

  @Test
  @DisplayName("a list equal to the window it came from writes nothing")
  void unchangedWritesNothing() {
    log.add("a", "b");
    List<Msg> read = read();

    assertThat(apply(read, Optional.empty()).isEmpty()).isTrue();
  }

  @Test
  @DisplayName("a blind list replaces the window: appends on a content prefix, evicts on a content suffix, else cuts")
  void blindLists() {
    log.add("a", "b");
    assertThat(WindowDiff.intent(C, List.of(msg("x")), this::tag, Optional.empty(), CODEC::isPinned)).isEmpty();

    applyBlind(List.of(msg("a"), msg("b"), msg("c")));
    assertThat(log.window()).containsExactly("a", "b", "c");
    assertThat(log.history()).containsExactly("a", "b", "c");

    applyBlind(List.of(msg("b"), msg("c"), msg("d")));
    assertThat(log.window()).containsExactly("b", "c", "d");

    WindowPlan<Msg> cut = applyBlind(List.of(msg("b"), msg("x")));
    assertThat(cut.cutFrom()).hasValue(3);
    assertThat(log.window()).containsExactly("b", "x");

    applyBlind(List.of(msg("y")));
    assertThat(log.window()).containsExactly("y");
    assertThat(log.history()).containsExactly("a", "b", "x", "y");

    applyBlind(List.of());
    assertThat(log.window()).isEmpty();
    assertThat(log.history()).containsExactly("a", "b", "x");
  }

  @Test
  @DisplayName("two blind lists are never mixed: the last one applied is the window")
  void blindLastWriterWins() {
    log.add("a");
    applyBlind(List.of(msg("a"), msg("from-1")));
    applyBlind(List.of(msg("a"), msg("from-2")));

    assertThat(log.window()).containsExactly("a", "from-2");
  }

  @Test
  @DisplayName("a list that evicts a tool call and keeps its result is the window as it is, the result first")
  void evictedCallKeepsItsResult() {
    log.add(new Msg("call", List.of("k1"), List.of()), new Msg("result", List.of(), List.of("k1")), msg("answer"));
    List<Msg> read = read();

    apply(List.of(read.get(1), read.get(2), msg("u")), Optional.empty());

    assertThat(log.window()).containsExactly("result", "answer", "u");
    assertThat(log.history()).containsExactly("call", "result", "answer", "u");
  }

  @Test
  @DisplayName("a tool result after a pinned message, its call evicted, stays in the window as the list has it")
  void resultAfterPinnedMessageStays() {
    log.add(msg("sys"), new Msg("call", List.of("k1"), List.of()), new Msg("result", List.of(), List.of("k1")),
        msg("u"));
    List<Msg> read = read();

    apply(List.of(read.get(0), read.get(2), read.get(3), msg("a")), Optional.empty());

    assertThat(log.window()).containsExactly("sys", "result", "u", "a");
  }

  // --- fixture ---

  private Snapshot lastSnapshot;

  private List<Msg> read() {
    StoredWindow<Msg> stored = log.stored();
    lastSnapshot = new Snapshot(C, stored.messages().stream().map(StoredMessage::eventId).toList(), stored.lastSeq(),
        orders.incrementAndGet());
    List<Msg> handed = new ArrayList<>();
    for (StoredMessage<Msg> message : stored.messages()) {
      Msg copy = new Msg(message.message().text(), message.message().calls(), message.message().answers());
      tags.put(copy, new Tag(lastSnapshot, message.eventId()));
      handed.add(copy);
    }
    return handed;
  }

  private Optional<Tag> tag(Msg message) {
    return Optional.ofNullable(tags.get(message));
  }

  private WindowPlan<Msg> apply(List<Msg> list, Optional<Snapshot> lastRead) {
    Intent<Msg> intent = WindowDiff.intent(C, list, this::tag, lastRead, CODEC::isPinned).orElseThrow();
    return log.apply(WindowDiff.plan(intent, log.stored(), ids(list)::get, log::freshId, CODEC));
  }

  private WindowPlan<Msg> applyBlind(List<Msg> list) {
    StoredWindow<Msg> stored = log.stored();
    return log.apply(WindowDiff.plan(WindowDiff.blind(list, stored, CODEC), stored, ids(list)::get, log::freshId, CODEC));
  }

  private List<String> ids(List<Msg> list) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      ids.add(log.freshId());
    }
    return ids;
  }

  private static Msg msg(String text) {
    return new Msg(text, List.of(), List.of());
  }

  /** A message: its text, the tool calls it asks for, the tool calls it answers. Equal by content, as records are. */
  record Msg(String text, List<String> calls, List<String> answers) {
  }

  private static final MessageCodec<Msg> CODEC = new MessageCodec<>() {
    @Override
    public Set<String> eventTypes() {
      return Set.of("msg");
    }

    @Override
    public String eventType(Msg message) {
      return "msg";
    }

    @Override
    public Json payload(Msg message) {
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("text", message.text());
      document.put("calls", message.calls());
      document.put("answers", message.answers());
      return Json.from(document);
    }

    @Override
    public Msg decode(Event event) {
      throw new UnsupportedOperationException("the diff never decodes");
    }

    @Override
    public boolean isPinned(Msg message) {
      return message.text().startsWith("sys");
    }
  };

  /** A log as the store holds it: message events and the window state in force, changed as a commit would. */
  private static final class Log {

    private final List<StoredMessage<Msg>> messages = new ArrayList<>();
    private WindowState state = WindowState.WHOLE_LOG;
    private long lastSeq;
    private int ids;

    String freshId() {
      return "e" + ++ids;
    }

    void add(String... texts) {
      for (String text : texts) {
        add(msg(text));
      }
    }

    void add(Msg... added) {
      for (Msg message : added) {
        messages.add(new StoredMessage<>(event(++lastSeq, freshId(), CODEC.payload(message)), message));
      }
    }

    private static Event event(long seq, String id, Json payload) {
      return new Event("c", seq, id, "msg", null, null, null, payload, Instant.EPOCH);
    }

    /** Another writer's eviction: the window starts at {@code seq}. */
    void evictBefore(long seq) {
      state = WindowState.growing(seq, List.of());
      lastSeq++;
    }

    StoredWindow<Msg> stored() {
      List<StoredMessage<Msg>> pinned = messages.stream().filter(m -> state.pinned().contains(m.seq())).toList();
      List<StoredMessage<Msg>> tail = state.tail(messages, StoredMessage::seq);
      return new StoredWindow<>(state, pinned, tail, lastSeq);
    }

    WindowPlan<Msg> apply(WindowPlan<Msg> plan) {
      OptionalLong cut = plan.cutFrom();
      if (cut.isPresent()) {
        messages.removeIf(m -> m.seq() >= cut.getAsLong());
        lastSeq = cut.getAsLong() - 1;
      }
      for (WindowPlan.Append<Msg> append : plan.appended()) {
        messages.add(new StoredMessage<>(event(++lastSeq, append.eventId(), append.payload()), append.message()));
      }
      if (plan.window().isPresent()) {
        state = plan.window().get();
        lastSeq++;
      }
      return plan;
    }

    List<String> window() {
      return stored().messages().stream().map(m -> m.message().text()).toList();
    }

    List<String> history() {
      return messages.stream().map(m -> m.message().text()).toList();
    }
  }
}
