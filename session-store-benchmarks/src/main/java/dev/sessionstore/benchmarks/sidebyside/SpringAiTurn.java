package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import dev.sessionstore.springai.SessionStoreChatMemoryRepository;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.memory.repository.jdbc.JdbcChatMemoryRepository;
import org.springframework.ai.chat.memory.repository.jdbc.PostgresChatMemoryRepositoryDialect;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * What one turn costs a Spring AI application: {@code ChatMemory.add} of a user message through
 * {@code MessageWindowChatMemory}, with the bridge ({@code SessionStoreChatMemoryRepository}) against Spring AI's
 * {@code JdbcChatMemoryRepository}, same PostgreSQL, at conversations of 10 to 10,000 messages. Two rows per length,
 * each side's turns interleaved with the other's:
 * <ul>
 *   <li><b>history kept</b>: the bridge with a window of 20 keeps the whole conversation in its log; Spring's repository
 *       keeps only its window, so keeping the conversation takes a window as long as it (the target: at least 20x
 *       cheaper than Spring at 1,000 messages);</li>
 *   <li><b>same window</b>: both with a window as long as the conversation, where the bridge reads the whole window
 *       back on each turn too (no target; how the bridge fares when the window itself is long).</li>
 * </ul>
 * Then whether the bridge's turn stays flat as the conversation grows (the target: its 10,000 row within 1.5x of its
 * 10 row): the bridge alone, window 20, one conversation per length in one store, a turn on each per round in a
 * random order ({@link Interleave#rounds}), so every length meets the same conditions. In the interleaved rows above,
 * a bridge turn at 10,000 messages follows a Spring turn that deleted and re-inserted 10,000 rows, whose work in the
 * database (WAL, dead rows, autovacuum) and garbage in the JVM land partly in the bridge's turn; the 10 row has no
 * such neighbour, so those rows compare the two sides at one length, not one side across lengths.
 * A turn on a full window evicts one message, so every call sees the same lengths; nothing is undone between calls.
 * Each length first runs {@value #WARMUP} turns on each side unmeasured ({@value #LONGEST_WARMUP} at 10,000 messages,
 * after the shorter lengths), so the JIT has compiled both sides' code, as in a server that has taken a few turns.
 */
final class SpringAiTurn implements Measure {

  private static final int[] LENGTHS = {10, 100, 1_000, 10_000};
  private static final int[] SMOKE_LENGTHS = {10, 20, 40, 80};
  private static final int WINDOW = 20;
  private static final int WARMUP = 100;
  private static final int LONGEST_WARMUP = 10;
  private static final double FLAT = 1.5;
  private static final double TARGET = 20;
  private static final int FLAT_ROUNDS = 200;

  @Override
  public String name() {
    return "a Spring AI turn through MessageWindowChatMemory, against Spring AI's JdbcChatMemoryRepository";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    boolean smoke = bench.scale().share() == 0;
    int[] lengths = smoke ? SMOKE_LENGTHS : LENGTHS;
    List<Integer> points = new ArrayList<>();
    List<Double> libraryRates = new ArrayList<>();
    List<Double> baselineRates = new ArrayList<>();
    for (int length : lengths) {
      Sides kept = measure(bench, length, Math.min(WINDOW, length), length);
      String keptName = "Spring AI turn at " + Numbers.count(length) + " messages, history kept (bridge window "
          + Math.min(WINDOW, length) + ", Spring window " + Numbers.count(length) + ")";
      double faster = kept.latencyRatio();
      boolean targeted = length == 1_000;
      results.add(new Row(keptName, Numbers.percentiles(kept.library()),
          "Spring AI " + Numbers.percentiles(kept.baseline()), Numbers.ratio(faster) + " faster",
          targeted ? "≥ " + Numbers.round(TARGET) + "× faster" : "—", !targeted || faster >= TARGET));
      points.add(length);
      libraryRates.add(kept.library().perSecond(1));
      baselineRates.add(kept.baseline().perSecond(1));

      Sides same = measure(bench, length, length, length);
      String sameName = "Spring AI turn at " + Numbers.count(length) + " messages, both windows "
          + Numbers.count(length);
      results.add(new Row(sameName, Numbers.percentiles(same.library()),
          "Spring AI " + Numbers.percentiles(same.baseline()), Numbers.ratio(same.latencyRatio()) + " faster", "—",
          true));
      if (length == lengths[0]) {
        results.baseline(keptName, BASELINE);
        results.baseline(sameName, BASELINE);
      }
    }
    results.add(new Panel("Spring AI turn, history kept (turns/s at the p50)", "messages in the conversation",
        "turns", points, libraryRates, baselineRates, true));
    flatness(bench, lengths, results);
  }

  /**
   * The bridge's turn at every length, lengths interleaved: one row per length against the shortest, the longest
   * to stay within {@value #FLAT}x of it.
   */
  private static void flatness(Bench bench, int[] lengths, Results results) throws Exception {
    List<Samples> byLength = bridgeTurnsByLength(bench, lengths);
    Samples shortest = byLength.get(0);
    for (int i = 0; i < lengths.length; i++) {
      Samples turns = byLength.get(i);
      double growth = turns.p50() / shortest.p50();
      boolean longest = i == lengths.length - 1;
      String name = "Spring AI bridge turn at " + Numbers.count(lengths[i]) + " messages, lengths interleaved "
          + "(window " + Math.min(WINDOW, lengths[i]) + ", history kept)";
      results.add(new Row(name, Numbers.percentiles(turns), "the " + Numbers.count(lengths[0]) + " row: "
          + Numbers.percentiles(shortest), Numbers.ratio(growth) + " of it",
          longest ? "≤ " + FLAT + "× the " + Numbers.count(lengths[0]) + " row" : "—", !longest || growth <= FLAT));
      if (i == 0) {
        results.baseline(name, FLATNESS_BASELINE);
      }
    }
  }

  /** The bridge's turns on one conversation per length in one store, a turn on each per round, in a random order. */
  private static List<Samples> bridgeTurnsByLength(Bench bench, int[] lengths) throws Exception {
    try (PgSchema library = bench.schemaWithTables("springai_flat");
        SessionStore store = library.openStore()) {
      ChatMemoryRepository bridge = SessionStoreChatMemoryRepository.builder(store).build();
      List<Trial> turns = new ArrayList<>(lengths.length);
      for (int length : lengths) {
        String conversation = "c" + length;
        bridge.saveAll(conversation, conversation(length));
        ChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(bridge)
            .maxMessages(Math.min(WINDOW, length)).build();
        // the first turn trims the window to its size: not measured
        memory.add(conversation, new UserMessage(Events.TEXT));
        turns.add(Trial.timed(i -> memory.add(conversation, new UserMessage(Events.TEXT))));
      }
      return Interleave.rounds(bench.scale().warmup(WARMUP), bench.scale().calls(FLAT_ROUNDS), turns);
    } catch (SQLException e) {
      throw new IllegalStateException("schema setup failed", e);
    }
  }

  /** {@code length} messages alternating user and assistant turns of the same text. */
  private static List<Message> conversation(int length) {
    List<Message> conversation = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      conversation.add(i % 2 == 0 ? new UserMessage(Events.TEXT) : new AssistantMessage(Events.TEXT));
    }
    return conversation;
  }

  private static final String FLATNESS_BASELINE = "The bridge's own turn at the shortest length: the same "
      + "`MessageWindowChatMemory.add(conversationId, userMessage)` over `SessionStoreChatMemoryRepository` (window "
      + "20, or the whole conversation when shorter; history kept in the log) on one conversation per length (10, 100, 1,000, 10,000 messages) in one store "
      + "on PostgreSQL; each round takes one turn on every conversation in a random order, so the lengths share the "
      + "machine's and the database's state alike (no Spring turn between them).";

  private static final String BASELINE = "Spring AI 1.1 `MessageWindowChatMemory.add(conversationId, userMessage)` "
      + "over `JdbcChatMemoryRepository` (PostgreSQL dialect, its own table created from the script the jar ships, "
      + "a schema of its own on the same database, a pool of the same settings): the memory reads the window, trims "
      + "it and calls `saveAll`, which deletes the conversation's rows and inserts the window again in one "
      + "transaction. The library side is the same `MessageWindowChatMemory` over `SessionStoreChatMemoryRepository` "
      + "(session-store-spring-ai): it reads the log's last seq, which tells it the window it keeps in memory is "
      + "current, and appends the new message (and a window event when the window's record changes) with that last "
      + "seq as the expected one: two statements. Messages alternate user and assistant turns of the same text on "
      + "both sides.";

  /** One interleaved run: a turn on each side, the bridge's window {@code bridgeWindow}, Spring's {@code springWindow}. */
  private static Sides measure(Bench bench, int length, int bridgeWindow, int springWindow) throws Exception {
    try (PgSchema library = bench.schemaWithTables("springai_turn");
        PgSchema spring = bench.schema("springai_turn_spring");
        SessionStore store = library.openStore()) {
      DataSource pool = spring.pool();
      SpringChatMemory.createTables(pool);
      ChatMemoryRepository jdbc = JdbcChatMemoryRepository.builder().dataSource(pool)
          .dialect(new PostgresChatMemoryRepositoryDialect()).transactionManager(new DataSourceTransactionManager(pool))
          .build();
      ChatMemoryRepository bridge = SessionStoreChatMemoryRepository.builder(store).build();
      List<Message> conversation = conversation(length);
      jdbc.saveAll("c", conversation);
      bridge.saveAll("c", conversation);
      ChatMemory springMemory = MessageWindowChatMemory.builder().chatMemoryRepository(jdbc).maxMessages(springWindow)
          .build();
      ChatMemory bridgeMemory = MessageWindowChatMemory.builder().chatMemoryRepository(bridge)
          .maxMessages(bridgeWindow).build();
      // the first turn trims the bridge's window to its size: not measured
      bridgeMemory.add("c", new UserMessage(Events.TEXT));
      springMemory.add("c", new UserMessage(Events.TEXT));
      boolean longest = length >= 10_000;
      return Interleave.pairs(bench.scale().warmup(longest ? LONGEST_WARMUP : WARMUP),
          bench.scale().calls(longest ? 20 : 100),
          Trial.timed(i -> bridgeMemory.add("c", new UserMessage(Events.TEXT))),
          Trial.timed(i -> springMemory.add("c", new UserMessage(Events.TEXT))));
    } catch (SQLException e) {
      throw new IllegalStateException("schema setup failed", e);
    }
  }
}
