package consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionstore.springai.session.SessionStoreSessionRepository;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.session.SessionRepository;
import org.springframework.ai.session.SessionService;
import org.springframework.ai.session.advisor.SessionMemoryAdvisor;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * spring-ai-session's SessionMemoryAdvisor on the starter's repository and no property: a session kept in ./sessions.db
 * outlives a restart of the application (the second run's prompt carries the first run's turn).
 */
class SpringAiSessionConsumerTest {

  @Test
  void sessionKeptInTheDefaultSqliteFileAcrossARestart() {
    String sessionId = "consumer-" + UUID.randomUUID();
    try (ConfigurableApplicationContext first = start()) {
      assertInstanceOf(SessionStoreSessionRepository.class, first.getBean(SessionRepository.class));
      assertEquals("ok", turn(first, sessionId, "hello"));
    }
    SpringAiSessionApplication.PROMPTS.clear();
    try (ConfigurableApplicationContext second = start()) {
      turn(second, sessionId, "again");
      List<String> prompt = SpringAiSessionApplication.PROMPTS.get(0).getInstructions().stream()
          .map(Message::getText).toList();
      assertEquals(List.of("hello", "ok", "again"), prompt);
    }
    assertTrue(Files.isRegularFile(Path.of("sessions.db")), "no ./sessions.db in " + Path.of("").toAbsolutePath());
  }

  private static String turn(ConfigurableApplicationContext context, String sessionId, String question) {
    ChatClient client = ChatClient.builder(context.getBean(ChatModel.class))
        .defaultAdvisors(SessionMemoryAdvisor.builder(context.getBean(SessionService.class)).build()).build();
    return client.prompt().user(question)
        .advisors(advisor -> advisor.param(SessionMemoryAdvisor.SESSION_ID_CONTEXT_KEY, sessionId)
            .param(SessionMemoryAdvisor.USER_ID_CONTEXT_KEY, "consumer"))
        .call().content();
  }

  private static ConfigurableApplicationContext start() {
    System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
    return new SpringApplicationBuilder(SpringAiSessionApplication.class).web(WebApplicationType.NONE).run();
  }
}
