package consumer.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.sessionstore.SessionStore;
import java.util.List;
import java.util.UUID;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Spring Boot application every Boot consumer project runs, as a user writes it: no bean of its own, Spring AI's
 * {@link MessageWindowChatMemory} over the repository the starter configures. Shared by the Boot consumers through
 * their common build (each adds this folder to its test sources) and compiled against each one's Boot and Spring AI.
 */
@SpringBootApplication
public class ChatMemoryApplication {

  /**
   * Adds one exchange to a new conversation in one run of the application, closes it, and reads the conversation
   * back in a second run started after the first closed, failing the test unless the history was kept across the
   * restart.
   *
   * @param args the command line of both runs ({@code --spring.datasource.url=...}), none for the defaults
   * @return the store's own description (its database), as the first run's {@code SessionStore} bean gave it
   */
  public static String historyKeptAcrossRestart(String... args) {
    String conversationId = "boot-consumer-" + UUID.randomUUID();
    String store;
    try (ConfigurableApplicationContext first = start(args)) {
      ChatMemory memory = assertInstanceOf(MessageWindowChatMemory.class, first.getBean(ChatMemory.class));
      memory.add(conversationId, List.of(new UserMessage("hello"), new AssistantMessage("hi there")));
      store = first.getBean(SessionStore.class).toString();
    }
    try (ConfigurableApplicationContext second = start(args)) {
      List<String> texts = second.getBean(ChatMemory.class).get(conversationId).stream().map(Message::getText)
          .toList();
      assertEquals(List.of("hello", "hi there"), texts);
    }
    return store;
  }

  /** The application, started without a web server; its logging goes to the test's SLF4J binding. */
  private static ConfigurableApplicationContext start(String... args) {
    System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
    return new SpringApplicationBuilder(ChatMemoryApplication.class).web(WebApplicationType.NONE).run(args);
  }
}
