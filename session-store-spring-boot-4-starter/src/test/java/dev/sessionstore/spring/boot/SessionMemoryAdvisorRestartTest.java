package dev.sessionstore.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springaicommunity.session.autoconfigure.SessionServiceAutoConfiguration;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.session.EventFilter;
import org.springframework.ai.session.SessionEvent;
import org.springframework.ai.session.SessionRepository;
import org.springframework.ai.session.SessionService;
import org.springframework.ai.session.advisor.SessionMemoryAdvisor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * spring-ai-session's {@code SessionMemoryAdvisor} end to end on the starter's SQLite file, with a scripted
 * {@link ChatModel}: a conversation, then a new application context over the same file (a restart) that continues it
 * with the history of the first.
 */
class SessionMemoryAdvisorRestartTest {

  @TempDir
  Path folder;

  private ApplicationContextRunner runner(ScriptedChatModel model) {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(SessionStoreAutoConfiguration.class,
            SessionStoreSessionRepositoryAutoConfiguration.class, SessionServiceAutoConfiguration.class))
        .withPropertyValues("session-store.sqlite.path=" + folder.resolve("sessions.db"))
        .withBean(ChatModel.class, () -> model);
  }

  private static String turn(ApplicationContext context, String question) {
    ChatClient client = ChatClient.builder(context.getBean(ChatModel.class))
        .defaultAdvisors(SessionMemoryAdvisor.builder(context.getBean(SessionService.class)).build()).build();
    return client.prompt().user(question)
        .advisors(advisor -> advisor.param(SessionMemoryAdvisor.SESSION_ID_CONTEXT_KEY, "s-1")
            .param(SessionMemoryAdvisor.USER_ID_CONTEXT_KEY, "alice"))
        .call().content();
  }

  @Test
  @DisplayName("the advisor's sessions survive a restart: the next prompt carries the earlier turns")
  void conversationSurvivesRestart() {
    ScriptedChatModel before = new ScriptedChatModel();
    runner(before).run(context -> {
      assertThat(turn(context, "hello")).isEqualTo("You are welcome.");
      assertThat(turn(context, "thanks")).isEqualTo("You are welcome.");
    });
    ScriptedChatModel after = new ScriptedChatModel();
    runner(after).run(context -> {
      turn(context, "and again");
      List<Message> prompt = after.prompts.get(0).getInstructions();
      assertThat(prompt).extracting(Message::getText)
          .containsExactly("hello", "You are welcome.", "thanks", "You are welcome.", "and again");
      SessionRepository repository = context.getBean(SessionRepository.class);
      assertThat(repository.findById("s-1").userId()).isEqualTo("alice");
      assertThat(repository.findEvents("s-1", EventFilter.all())).extracting(SessionEvent::getId).hasSize(6);
      assertThat(repository.getEventVersion("s-1")).isEqualTo(6);
    });
  }
}
