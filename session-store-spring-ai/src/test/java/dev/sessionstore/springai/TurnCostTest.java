package dev.sessionstore.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
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

 * time. The window holds 10 messages, so every measured turn evicts at all three lengths. The store's background deadline sweep and notifications are off, so that only the turn's statements count.
 */
class TurnCostTest {

  private static final int WINDOW = 10;

  @Test
  @DisplayName("statements, rows written and events appended per turn are the same at 10, 1,000 and 10,000 messages")
  void turnCostIsFlat() {
    Map<Integer, long[]> costs = new LinkedHashMap<>();
    for (int history : new int[] {10, 1_000, 10_000}) {
      costs.put(history, turnCost(history));
    }
    System.out.println("statements and rows written per turn, by history length: "
        + costs.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()[0] + " statements/" + e.getValue()[1]
            + " rows/" + e.getValue()[2] + " events").toList());

    long[] shortest = costs.get(10);
    // the user message, and a window event when the window moved (1.1 evicts a message per turn here; 2.0 evicts
    // whole turns, so not on every turn)
    assertThat(shortest[2]).as("events a turn appends").isBetween(1L, 2L);
    costs.forEach((history, cost) -> assertThat(cost).as("statements and rows at %d messages", history)
        .containsExactly(shortest));
  }

  /**
   * Statements executed, rows reported written and events appended by the fourth turn after {@code history}
   * messages were stored (the two {@code lastSeq} reads around it not counted).
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
      long appended = store.events().lastSeq("c") - lastSeq;

      assertThat(repository.history("c")).hasSize(history + 4);
      assertThat(memory.get("c")).hasSize(WINDOW);
      return new long[] {counter.statements() - statements - 2, counter.rowsWritten() - rows, appended};
    } finally {
      TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }
}
