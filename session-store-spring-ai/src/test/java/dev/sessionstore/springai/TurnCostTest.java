package dev.sessionstore.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
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
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * The cost of one turn ({@code ChatMemory.add} of a user message through {@code MessageWindowChatMemory}) does not
 * grow with the history behind the window: counted in SQL statements executed and rows written on PostgreSQL, not in
 * time. The window holds 10 messages, so every measured turn evicts at all three lengths. The store's background
 * deadline sweep and notifications are off, so that only the turn's statements count.
 */
class TurnCostTest {

  private static final int WINDOW = 10;

  @Test
  @DisplayName("a turn is two statements (read the log's last seq, append), the same at 30, 300 and 3,000 messages")
  void turnCostIsFlat() {
    Map<Integer, long[]> costs = new LinkedHashMap<>();
    for (int history : new int[] {30, 300, 3_000}) {
      costs.put(history, turnCost(history));
    }
    System.out.println("statements and rows written per turn, by history length: "
        + costs.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()[0] + " statements/" + e.getValue()[1]
            + " rows/" + e.getValue()[2] + " events/"
            + e.getValue()[3] + " statements on another repository").toList());

    long[] shortest = costs.get(30);
    // findByConversationId: the log's last seq, which validates the cached window; saveAll: one append with the
    // expected last seq
    assertThat(shortest[0]).as("statements a turn executes").isEqualTo(2);
    assertThat(shortest[3]).as("statements of a turn through a repository that has not seen the conversation")
        .isEqualTo(4);
    // the user message, and a window event when the window's record changes (1.1 evicts a message per turn here,
    // which leaves its record as "the newest 10": none; 2.0 evicts whole turns, changing its size every other turn)
    assertThat(shortest[2]).as("events a turn appends").isBetween(1L, 2L);
    costs.forEach((history, cost) -> assertThat(cost).as("statements and rows at %d messages", history)
        .containsExactly(shortest));
  }

  /**
   * Statements executed, rows reported written and events appended by the fourth turn after {@code history}
   * messages were stored (the test's own {@code lastSeq} read before it not counted); prints the turn's statements.
   * Rows written count what the statements report: PostgreSQL's append function is a query, which reports none.
   */
  private static long[] turnCost(int history) {
    String schema = TestDatabase.uniqueName("springai_cost");
    StatementCounter counter = new StatementCounter();
    try (HikariDataSource pool = Pools.postgres(schema, 4);
         SessionStore store = JdbcSessionStore.builder().dataSource(counter.wrap(pool)).schema(schema)
             .notifications(false).deadlineSweepInterval(Duration.ofHours(1)).build()) {
      SessionStoreChatMemoryRepository repository = SessionStoreChatMemoryRepository.builder(store).build();
      List<Message> messages = new ArrayList<>();
      for (int i = 0; i < history; i++) {
        messages.add(i % 2 == 0 ? new UserMessage("question " + i) : new AssistantMessage("answer " + i));
      }
      repository.saveAll("c", messages);
      ChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(WINDOW)
          .build();
      memory.add("c", new UserMessage("turn 1"));
      memory.add("c", new AssistantMessage("reply 1"));
      memory.add("c", new UserMessage("turn 2"));
      long statements = counter.statements();
      long rows = counter.rowsWritten();
      long lastSeq = store.events().lastSeq("c");

      memory.add("c", new UserMessage("turn 3"));
      long[] cost = {counter.statements() - statements - 1, counter.rowsWritten() - rows, 0};
      List<String> turn = counter.texts().subList((int) statements + 1, counter.texts().size());
      cost[2] = store.events().lastSeq("c") - lastSeq;

      System.out.println("a turn at " + history + " messages: " + turn);

      // the same turn through another repository on the store, which has not seen the conversation: it reads the
      // window from the log (the newest window event, the newest events down to the window's tail) before appending
      ChatMemory other = MessageWindowChatMemory.builder()
          .chatMemoryRepository(SessionStoreChatMemoryRepository.builder(store).build()).maxMessages(WINDOW).build();
      long before = counter.statements();
      other.add("c", new AssistantMessage("reply 3"));
      long cold = counter.statements() - before;

      assertThat(repository.history("c")).hasSize(history + 5);
      // 1.1 evicts single messages, 2.0 whole turns
      assertThat(memory.get("c")).hasSizeBetween(WINDOW - 2, WINDOW).last()
          .isEqualTo(new AssistantMessage("reply 3"));
      return new long[] {cost[0], cost[1], cost[2], cold};
    } finally {
      TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }
}
