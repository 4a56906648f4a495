package consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.langchain4j.SessionStoreChatMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * session-store-langchain4j as a LangChain4j app has it, on a SQLite file under target/: LangChain4j's own
 * {@code MessageWindowChatMemory} and an {@code AiServices} assistant keep their memory in the store, and a new store
 * over the same file (the app restarted) reads the same messages back. The model is the app's own {@link ChatModel}
 * answering from what it is sent, so no model service is needed.
 */
class LangChain4jOnSqliteTest {

  /** The assistant LangChain4j implements. */
  interface Assistant {
    String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String question);
  }

  /** Answers with how many messages it was sent and the last one's text; keeps every request. */
  static final class CountingModel implements ChatModel {
    final List<List<ChatMessage>> requests = new CopyOnWriteArrayList<>();

    @Override
    public ChatResponse doChat(ChatRequest request) {
      requests.add(List.copyOf(request.messages()));
      String last = ((UserMessage) request.messages().get(request.messages().size() - 1)).singleText();
      return ChatResponse.builder()
          .aiMessage(AiMessage.from(request.messages().size() + " messages, last: " + last)).build();
    }
  }

  private static SessionStore open(Path file) {
    return JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + file).build();
  }

  private static Path newFile(String name) throws Exception {
    Path file = Path.of("target", name);
    Files.deleteIfExists(file);
    return file;
  }

  @Test
  void messageWindowChatMemoryReadsItsWindowBackAfterReopening() throws Exception {
    Path file = newFile("langchain4j-memory.db");
    List<ChatMessage> window;
    try (SessionStore store = open(file)) {
      ChatMemory memory = MessageWindowChatMemory.builder().id("ada").maxMessages(3)
          .chatMemoryStore(SessionStoreChatMemoryStore.builder(store).build()).build();
      memory.add(SystemMessage.from("You are terse."));
      memory.add(UserMessage.from("Hi"));
      memory.add(AiMessage.from("Hello."));
      memory.add(UserMessage.from("Weather?"));
      memory.add(AiMessage.from("Sunny."));
      window = memory.messages();
      assertEquals(List.of(SystemMessage.from("You are terse."), UserMessage.from("Weather?"), AiMessage.from("Sunny.")),
          window, "the window keeps the system message and the newest two");
    }

    try (SessionStore store = open(file)) {
      SessionStoreChatMemoryStore memoryStore = SessionStoreChatMemoryStore.builder(store).build();
      ChatMemory memory = MessageWindowChatMemory.builder().id("ada").maxMessages(3).chatMemoryStore(memoryStore)
          .build();
      assertEquals(window, memory.messages());
      assertEquals(List.of(SystemMessage.from("You are terse."), UserMessage.from("Hi"), AiMessage.from("Hello."),
          UserMessage.from("Weather?"), AiMessage.from("Sunny.")), memoryStore.history("ada"),
          "the full history stays behind the window");
      assertEquals(List.of("ada"), memoryStore.memoryIds());
    }
  }

  @Test
  void aiServicesContinueTheConversationAfterReopening() throws Exception {
    Path file = newFile("langchain4j-ai-services.db");
    CountingModel model = new CountingModel();
    try (SessionStore store = open(file)) {
      assertEquals("1 messages, last: Hi", assistant(store, model).chat("bob", "Hi"));
    }
    try (SessionStore store = open(file)) {
      assertEquals("3 messages, last: Again", assistant(store, model).chat("bob", "Again"));
      assertEquals(List.of(UserMessage.from("Hi"), AiMessage.from("1 messages, last: Hi"), UserMessage.from("Again")),
          model.requests.get(1), "the restarted app sent the stored turn with the new question");
      assertEquals(4, SessionStoreChatMemoryStore.builder(store).build().getMessages("bob").size());
    }
  }

  private static Assistant assistant(SessionStore store, ChatModel model) {
    SessionStoreChatMemoryStore memoryStore = SessionStoreChatMemoryStore.builder(store).build();
    return AiServices.builder(Assistant.class).chatModel(model)
        .chatMemoryProvider(id -> MessageWindowChatMemory.builder().id(id).maxMessages(20)
            .chatMemoryStore(memoryStore).build())
        .build();
  }
}
