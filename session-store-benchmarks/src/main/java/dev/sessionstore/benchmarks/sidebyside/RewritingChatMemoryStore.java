package dev.sessionstore.benchmarks.sidebyside;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The baseline of {@link LangChain4jChatMemory}: a LangChain4j {@link ChatMemoryStore} on PostgreSQL as LangChain4j's
 * persistence example and the community's database stores write it (no JDBC one is on Maven Central): one row per
 * memory id holding the whole list as LangChain4j's JSON ({@code ChatMessageSerializer.messagesToJson}), read with
 * one {@code SELECT} and rewritten whole by every {@code updateMessages} with one upsert. Autocommit, one statement
 * per call.
 */
final class RewritingChatMemoryStore implements ChatMemoryStore {

  private final DataSource pool;

  RewritingChatMemoryStore(DataSource pool) throws SQLException {
    this.pool = pool;
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS chat_memory (memory_id TEXT PRIMARY KEY, messages TEXT NOT NULL)");
    }
  }

  @Override
  public List<ChatMessage> getMessages(Object memoryId) {
    try (Connection connection = pool.getConnection();
        PreparedStatement select = connection.prepareStatement(
            "SELECT messages FROM chat_memory WHERE memory_id = ?")) {
      select.setString(1, memoryId.toString());
      try (ResultSet rows = select.executeQuery()) {
        return rows.next() ? ChatMessageDeserializer.messagesFromJson(rows.getString(1)) : new ArrayList<>();
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void updateMessages(Object memoryId, List<ChatMessage> messages) {
    try (Connection connection = pool.getConnection();
        PreparedStatement upsert = connection.prepareStatement("INSERT INTO chat_memory (memory_id, messages)"
            + " VALUES (?, ?) ON CONFLICT (memory_id) DO UPDATE SET messages = EXCLUDED.messages")) {
      upsert.setString(1, memoryId.toString());
      upsert.setString(2, ChatMessageSerializer.messagesToJson(messages));
      upsert.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void deleteMessages(Object memoryId) {
    try (Connection connection = pool.getConnection();
        PreparedStatement delete = connection.prepareStatement("DELETE FROM chat_memory WHERE memory_id = ?")) {
      delete.setString(1, memoryId.toString());
      delete.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
