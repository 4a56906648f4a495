package dev.sessionstore.benchmarks.sidebyside;

import dev.sessionstore.SessionStore;
import dev.sessionstore.benchmarks.Events;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.ai.chat.memory.repository.jdbc.JdbcChatMemoryRepository;
import org.springframework.ai.chat.memory.repository.jdbc.PostgresChatMemoryRepositoryDialect;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * How long does adding the next message to a conversation of {@link Scale#conversation()} messages take: one
 * library append against Spring AI's {@code JdbcChatMemoryRepository.saveAll}, which its chat memory calls with the
 * whole conversation and which replaces the stored one (delete, then insert every message) in one transaction.
 * After each call, outside the measurement, both sides go back to the conversation without it.
 */
final class SpringChatMemory implements Measure {

  private static final String SPRING_SCHEMA =
      "org/springframework/ai/chat/memory/repository/jdbc/schema-postgresql.sql";
  private static final double TARGET = 100;

  @Override
  public String name() {
    return "next message, against Spring AI's JdbcChatMemoryRepository";
  }

  @Override
  public void run(Bench bench, Results results) throws Exception {
    int messages = bench.scale().conversation();
    String name = "add message #" + Numbers.count(messages + 1L) + " to a conversation, vs Spring AI 1.1 "
        + "`JdbcChatMemoryRepository` on the same database";
    String session = "conversation";
    String conversation = UUID.randomUUID().toString();
    try (PgSchema library = bench.schemaWithTables("chat");
        PgSchema spring = bench.schema("chat_spring");
        SessionStore store = library.openStore()) {
      DataSource pool = spring.pool();
      createTables(pool);
      JdbcChatMemoryRepository repository = JdbcChatMemoryRepository.builder()
          .dataSource(pool)
          .dialect(new PostgresChatMemoryRepositoryDialect())
          .transactionManager(new DataSourceTransactionManager(pool))
          .build();
      List<Message> stored = new ArrayList<>();
      for (int i = 0; i < messages; i++) {
        stored.add(message(i));
      }
      repository.saveAll(conversation, stored);
      Events.fill(store, session, messages);

      Sides sides = Interleave.pairs(bench.scale().warmup(5), bench.scale().calls(40),
          Trial.undone(i -> store.events().append(session, Events.turn(messages)),
              added -> store.events().truncate(session, added.seq())),
          Trial.undone(i -> {
            List<Message> next = new ArrayList<>(stored);
            next.add(message(messages));
            repository.saveAll(conversation, next);
            return stored;
          }, previous -> repository.saveAll(conversation, previous)));
      double faster = sides.latencyRatio();
      results.add(new Row(name, Numbers.percentiles(sides.library()),
          "Spring AI " + Numbers.percentiles(sides.baseline()), Numbers.ratio(faster) + " faster",
          "≥ " + Numbers.round(TARGET) + "× faster", faster >= TARGET));
      results.baseline(name, "Spring AI 1.1 `JdbcChatMemoryRepository.saveAll(conversationId, messages)` with the "
          + "whole conversation plus the new message, as `MessageWindowChatMemory` calls it: in one transaction "
          + "it deletes the conversation's rows and inserts every message again (a JDBC batch), in its own table "
          + "(`SPRING_AI_CHAT_MEMORY`, created from the script the jar ships) in a schema of its own on the same "
          + "database, through a pool of the same settings. Messages carry the same text as the library's events.");
    }
  }

  /** Message {@code i}: user and assistant turns alternating, as {@link Events#turn} makes them. */
  private static Message message(int i) {
    return i % 2 == 0 ? new UserMessage(Events.TEXT) : new AssistantMessage(Events.TEXT);
  }

  /** Runs the PostgreSQL schema script shipped in Spring AI's jar, in the pool's schema. */
  static void createTables(DataSource pool) throws SQLException {
    String script;
    try (InputStream in = SpringChatMemory.class.getClassLoader().getResourceAsStream(SPRING_SCHEMA)) {
      if (in == null) {
        throw new IllegalStateException(SPRING_SCHEMA + " is not on the class path");
      }
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
      for (String sql : script.split(";")) {
        if (!sql.isBlank()) {
          statement.execute(sql);
        }
      }
    }
  }
}
