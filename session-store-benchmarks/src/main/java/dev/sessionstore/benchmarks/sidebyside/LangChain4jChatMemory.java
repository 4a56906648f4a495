package dev.sessionstore.benchmarks.sidebyside;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import dev.sessionstore.langchain4j.SessionStoreChatMemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * How long does one turn ({@code messages()}, a user message, then the model's answer) through LangChain4j's
 * {@code MessageWindowChatMemory} of {@value #WINDOW} messages take when the conversation's history is 10, 100, 1,000
 * or 10,000 messages long, with {@link SessionStoreChatMemoryStore} against a store that rewrites the window as one
 * JSON row ({@link RewritingChatMemoryStore})? The library keeps the whole history in its log behind the window; the
 * rewriting store keeps the {@value #WINDOW} messages of its window and drops the rest. A third side, reported beside
 * the baseline, is the rewriting store keeping the whole history too (its window as long as the history). The
 * history's last {@value #KEPT_TURNS} turns are made through the memories before the measured ones (so the library's
 * window and its records are in place, as in a conversation running through a window). After each measured turn,
 * outside the measurement, the library and the whole-history store go back to the history without it and every side
 * collects its garbage, so that the whole-history store's (megabytes of JSON per turn at 10,000 messages) is not
 * collected in another side's next turn. The library goes back by cutting its log directly, behind the memory store's
 * back, then reads the memory once through it, untimed: so each measured turn starts where the turn before it in a
 * running conversation leaves the store (its kept window current), not with a window another writer moved. Each
 * history first runs {@value #WARMUP} turns on each side unmeasured ({@value #LONGEST_WARMUP} at 10,000 messages, after
 * the shorter histories), so the JIT has compiled every side's code, as in a server that has taken a few turns.
 */
final class LangChain4jChatMemory implements Measure {

  static final int WINDOW = 20;
  /** Turns made through the memories before the measured ones, kept: the last messages of the history. */
  static final int KEPT_TURNS = 2;
  private static final int FILL_CHUNK = 500;
  private static final int WARMUP = 100;
  private static final int LONGEST_WARMUP = 10;
  private static final double FLAT = 1.5;
  private static final double TARGET = 0.9;

  @Override
  public String name() {
    return "one turn through LangChain4j's MessageWindowChatMemory, against a store rewriting the window";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    List<Integer> histories = Stream.of(10, 100, 1_000, 10_000)
        .map(n -> Math.min(n, bench.scale().conversation() * 10)).distinct().toList();
    try (PgSchema library = bench.schemaWithTables("lc4j");
        PgSchema baseline = bench.schema("lc4j_rewrite");
        SessionStore store = library.openStore()) {
      SessionStoreChatMemoryStore memoryStore = SessionStoreChatMemoryStore.builder(store).build();
      RewritingChatMemoryStore rewriting = new RewritingChatMemoryStore(baseline.pool());
      double firstP50 = 0;
      for (int history : histories) {
        String id = "memory-" + history;
        List<ChatMessage> messages = new ArrayList<>();
        int filled = history - 2 * KEPT_TURNS;
        for (int i = 0; i < filled; i++) {
          messages.add(message(i));
        }
        for (int end = FILL_CHUNK; end < filled + FILL_CHUNK; end += FILL_CHUNK) {
          List<ChatMessage> read = memoryStore.getMessages(id);
          read.addAll(messages.subList(read.size(), Math.min(end, filled)));
          memoryStore.updateMessages(id, read);
        }
        rewriting.updateMessages(id, messages);
        String windowId = id + "-window";
        rewriting.updateMessages(windowId, messages.subList(Math.max(0, filled - WINDOW), filled));
        ChatMemory windowed = MessageWindowChatMemory.builder().id(id).maxMessages(WINDOW)
            .chatMemoryStore(memoryStore).build();
        ChatMemory rewritten = MessageWindowChatMemory.builder().id(windowId).maxMessages(WINDOW)
            .chatMemoryStore(rewriting).build();
        ChatMemory whole = MessageWindowChatMemory.builder().id(id).maxMessages(Integer.MAX_VALUE)
            .chatMemoryStore(rewriting).build();
        // the history's last turns made through the memories and kept: the library's window and its records are then
        // in place, as in a conversation running through a window
        for (int i = 0; i < KEPT_TURNS; i++) {
          turn(windowed);
          turn(rewritten);
          turn(whole);
        }
        List<ChatMessage> kept = rewriting.getMessages(id);
        Trial libraryTurn = i -> {
          long before = store.events().lastSeq(id);
          long start = System.nanoTime();
          turn(windowed);
          long elapsed = System.nanoTime() - start;
          store.events().truncate(id, before + 1);
          windowed.messages();
          System.gc();
          return elapsed;
        };
        Trial baselineTurn = i -> {
          long start = System.nanoTime();
          turn(rewritten);
          long elapsed = System.nanoTime() - start;
          System.gc();
          return elapsed;
        };
        Trial wholeTurn = Trial.undone(i -> {
          turn(whole);
          return kept;
        }, previous -> {
          rewriting.updateMessages(id, previous);
          System.gc();
        });
        List<Samples> samples = Interleave.rounds(
            bench.scale().warmup(history >= 10_000 ? LONGEST_WARMUP : WARMUP), bench.scale().calls(40),
            List.of(libraryTurn, baselineTurn, wholeTurn));
        Sides sides = new Sides(samples.get(0), samples.get(1));
        Samples wholeHistory = samples.get(2);
        if (firstP50 == 0) {
          firstP50 = sides.library().p50();
        }
        double flatness = sides.library().p50() / firstP50;
        double ratio = sides.latencyRatio();
        String name = "one turn through `MessageWindowChatMemory` (window " + WINDOW + ") at a history of "
            + Numbers.count(history) + " messages, vs a LangChain4j store rewriting the window";
        results.add(new Row(name, Numbers.percentiles(sides.library()),
            "rewriting store " + Numbers.percentiles(sides.baseline()) + "; keeping the whole history "
                + Numbers.percentiles(wholeHistory) + " (library " + Numbers.ratio(wholeHistory.p50()
                / sides.library().p50()) + " faster)",
            Numbers.ratio(ratio) + " faster",
            "≥ " + Numbers.round(TARGET) + "×; p50 ≤ " + Numbers.round(FLAT) + "× the turn at a history of "
                + Numbers.count(histories.get(0)) + " (" + Numbers.ratio(flatness) + ")",
            ratio >= TARGET && flatness <= FLAT));
        results.baseline(name, "LangChain4j's `MessageWindowChatMemory` (langchain4j 1.19.0) of the same window "
            + WINDOW + " over a `ChatMemoryStore` as LangChain4j's persistence example and the community's database "
            + "stores write one (no JDBC store is on Maven Central): one row per memory id holding the window as "
            + "`ChatMessageSerializer.messagesToJson`, read with one `SELECT` and rewritten whole with one upsert by "
            + "each `updateMessages` (auto-committed), on the same database through a pool of the same settings. It "
            + "keeps the " + WINDOW + " messages of its window and drops the rest; the library keeps them all in its "
            + "log. Beside it, the same store with a window as long as the history, which keeps it whole as the "
            + "library does (after each of its turns, untimed, it goes back to the history without it). A turn is "
            + "`messages()`, `add(UserMessage)`, `add(AiMessage)`: three reads and two writes on each side. After "
            + "each turn, untimed, every side runs `System.gc()`; the library cuts its log back to the history and "
            + "reads the memory once.");
      }
    }
  }

  /** One turn: the memory's messages read, the user's message, then the model's answer. */
  private static void turn(ChatMemory memory) {
    memory.messages();
    memory.add(UserMessage.from(Events.TEXT));
    memory.add(AiMessage.from(Events.TEXT));
  }

  /** Message {@code i}: user and AI turns alternating, with the text of {@link Events#TEXT}. */
  private static ChatMessage message(int i) {
    return i % 2 == 0 ? UserMessage.from(Events.TEXT + " " + i) : AiMessage.from(Events.TEXT + " " + i);
  }
}
