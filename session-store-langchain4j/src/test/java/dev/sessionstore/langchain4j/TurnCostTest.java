package dev.sessionstore.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.StatementCounter;
import dev.sessionstore.jdbc.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The cost of one turn (a user message and the model's answer added through {@code MessageWindowChatMemory}, each
 * {@code add} a {@code getMessages} and an {@code updateMessages}) does not grow with the history behind the window:
 * counted in SQL statements executed on PostgreSQL, not in time. The window holds 10 messages, so every measured
 * {@code add} evicts at all three lengths. The store's background deadline sweep and notifications are off, so that
 * only the turn's statements count.
 */
class TurnCostTest {

  private static final int WINDOW = 10;

  @Test
  @DisplayName("a turn is four statements (per add: read the log's last seq, append), the same at 30, 300 and 3,000"
      + " messages")
  void turnCostIsFlat() {
    Map<Integer, long[]> costs = new LinkedHashMap<>();
    for (int history : new int[] {30, 300, 3_000}) {
      costs.put(history, turnCost(history));
    }
    System.out.println("statements and events per turn, by history length: "
        + costs.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()[0] + " statements/" + e.getValue()[1]
            + " events/" + e.getValue()[2] + " statements on another store").toList());

    long[] shortest = costs.get(30);
    // per add: getMessages reads the log's last seq, which validates the cached window; updateMessages appends the
    // message with the expected last seq, and no window event: the add evicts one message from the full window,
    // which leaves the window's record (the newest 10 messages) as it is
    assertThat(shortest[0]).as("statements a turn executes").isEqualTo(4);
    assertThat(shortest[1]).as("events (rows) a turn appends").isEqualTo(2);
    // its first add reads the window from the log (the newest window event, the newest events down to the window's
    // tail, which reach that window event: it was written by the first add of turn 1)
    assertThat(shortest[2]).as("statements of a turn through a store that has not seen the memory").isEqualTo(6);
    costs.forEach((history, cost) -> assertThat(cost).as("statements and events at %d messages", history)
        .containsExactly(shortest));
  }

  /**
   * Statements executed and events appended by the third turn after {@code history} messages were stored (the
   * test's own {@code lastSeq} read before it not counted), and the statements of the same turn through another
   * store instance; prints the turn's statements.
   */
  private static long[] turnCost(int history) {
    String schema = TestDatabase.uniqueName("lc4j_cost");
    StatementCounter counter = new StatementCounter();
    try (HikariDataSource pool = Pools.postgres(schema, 4);
         SessionStore store = JdbcSessionStore.builder().dataSource(counter.wrap(pool)).schema(schema)
             .notifications(false).deadlineSweepInterval(Duration.ofHours(1)).build()) {
      SessionStoreChatMemoryStore memoryStore = SessionStoreChatMemoryStore.builder(store).build();
      List<ChatMessage> messages = new ArrayList<>();
      for (int i = 0; i < history; i++) {
        messages.add(i % 2 == 0 ? UserMessage.from("question " + i) : AiMessage.from("answer " + i));
      }
      memoryStore.updateMessages("m", messages);
      ChatMemory memory = MessageWindowChatMemory.builder().id("m").chatMemoryStore(memoryStore)
          .maxMessages(WINDOW).build();
      memory.add(UserMessage.from("turn 1"));
      memory.add(AiMessage.from("reply 1"));
      memory.add(UserMessage.from("turn 2"));
      memory.add(AiMessage.from("reply 2"));
      long statements = counter.statements();
      long lastSeq = store.events().lastSeq("m");

      memory.add(UserMessage.from("turn 3"));
      memory.add(AiMessage.from("reply 3"));
      long turn = counter.statements() - statements - 1;
      List<String> texts = counter.texts().subList((int) statements + 1, counter.texts().size());
      long appended = store.events().lastSeq("m") - lastSeq;
      System.out.println("a turn at " + history + " messages: " + texts);

      ChatMemory other = MessageWindowChatMemory.builder().id("m")
          .chatMemoryStore(SessionStoreChatMemoryStore.builder(store).build()).maxMessages(WINDOW).build();
      long before = counter.statements();
      other.add(UserMessage.from("turn 4"));
      other.add(AiMessage.from("reply 4"));
      long cold = counter.statements() - before;

      assertThat(memoryStore.history("m")).hasSize(history + 8);
      assertThat(memory.messages()).hasSize(WINDOW).last().isEqualTo(AiMessage.from("reply 4"));
      return new long[] {turn, appended, cold};
    } finally {
      TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }
}
