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
 * {@code JdbcChatMemoryRepository}, same PostgreSQL, at conversations of 10 to 10,000 messages. Two rows per length:
 * <ul>
 *   <li><b>history kept</b>: the bridge with a window of 20 keeps the whole conversation in its log; Spring's repository
 *       keeps only its window, so keeping the conversation takes a window as long as it (the targets: the bridge flat,
 *       its 10,000 row within 1.5x of its 10 row, and at least 20x cheaper than Spring at 1,000 messages);</li>
 *   <li><b>same window</b>: both with a window as long as the conversation, where the bridge reads the whole window
 *       back on each turn too (no target; how the bridge fares when the window itself is long).</li>
 * </ul>
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
    double firstKept = 0;
    for (int length : lengths) {
      Sides kept = measure(bench, length, Math.min(WINDOW, length), length);
      double keptMedian = kept.library().p50();
      firstKept = firstKept == 0 ? keptMedian : firstKept;
      String keptName = "Spring AI turn at " + Numbers.count(length) + " messages, history kept (bridge window "
          + Math.min(WINDOW, length) + ", Spring window " + Numbers.count(length) + ")";
      double faster = kept.latencyRatio();
      boolean flat = keptMedian <= FLAT * firstKept;
      String target = length == 1_000 ? "≥ " + Numbers.round(TARGET) + "× faster, ≤ " + FLAT + "× the 10 row"
          : "≤ " + FLAT + "× the 10 row";
      boolean met = flat && (length != 1_000 || faster >= TARGET);
      results.add(new Row(keptName, Numbers.percentiles(kept.library()),
          "Spring AI " + Numbers.percentiles(kept.baseline()), Numbers.ratio(faster) + " faster", target, met));
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
  }

  private static final String BASELINE = "Spring AI 1.1 `MessageWindowChatMemory.add(conversationId, userMessage)` "
      + "over `JdbcChatMemoryRepository` (PostgreSQL dialect, its own table created from the script the jar ships, "
      + "a schema of its own on the same database, a pool of the same settings): the memory reads the window, trims "
      + "it and calls `saveAll`, which deletes the conversation's rows and inserts the window again in one "
      + "transaction. The library side is the same `MessageWindowChatMemory` over `SessionStoreChatMemoryRepository` "
      + "(session-store-spring-ai): it reads the log's last seq, which tells it the window it keeps in memory is "
      + "current, and appends the new message (and a window event when the window moves) with that last seq as the "
      + "expected one: two statements. Messages alternate user and assistant turns of the same text on both sides.";

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
      List<Message> conversation = new ArrayList<>(length);
      for (int i = 0; i < length; i++) {
        conversation.add(i % 2 == 0 ? new UserMessage(Events.TEXT) : new AssistantMessage(Events.TEXT));
      }
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
