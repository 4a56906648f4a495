package dev.sessionstore.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.springai.SessionStoreChatMemoryRepository;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The starter in a whole application: two turns through {@code ChatClient}, the advisor and the window memory, one
 * of them calling a tool, then the application starts again (a second context on the same database, sharing no
 * object with the first, as after a restart; the test framework owns the first one and closes it after the test) and
 * reads the same conversation back, tool call and tool result included. Each backend's subclass is a
 * {@code @SpringBootTest} and names its properties.
 */
abstract class ChatApplicationContract {

  @Autowired
  ConfigurableApplicationContext context;

  /** The properties of the application (the same for the restarted one). */
  abstract Map<String, Object> properties();

  /** The application's configuration classes. */
  abstract Class<?>[] sources();

  @Test
  @DisplayName("two turns with a tool call, then a restarted application reads the conversation back")
  void conversationSurvivesARestart() {
    assertThat(context.getBean(ChatMemoryRepository.class)).isInstanceOf(SessionStoreChatMemoryRepository.class);
    assertThat(context.getBean(ChatMemory.class)).isInstanceOf(MessageWindowChatMemory.class);

    assertThat(ChatApplication.turn(context, "trip", "What is the weather in Paris?")).isEqualTo("It is \"sunny in Paris\".");
    assertThat(ChatApplication.turn(context, "trip", "Thanks!")).isEqualTo("You are welcome.");

    ScriptedChatModel model = context.getBean(ScriptedChatModel.class);
    List<Message> lastPrompt = model.prompts.get(model.prompts.size() - 1).getInstructions();
    assertThat(lastPrompt).extracting(Message::getMessageType).containsExactly(MessageType.USER,
        MessageType.ASSISTANT, MessageType.TOOL, MessageType.ASSISTANT, MessageType.USER);
    List<Message> before = context.getBean(ChatMemory.class).get("trip");

    try (ConfigurableApplicationContext restarted = new SpringApplicationBuilder(sources()).properties(properties())
        .run()) {
      List<Message> after = restarted.getBean(ChatMemory.class).get("trip");

      assertThat(after).isEqualTo(before);
      assertThat(after).extracting(Message::getMessageType).containsExactly(MessageType.USER, MessageType.ASSISTANT,
          MessageType.TOOL, MessageType.ASSISTANT, MessageType.USER, MessageType.ASSISTANT);
      AssistantMessage.ToolCall call = ((AssistantMessage) after.get(1)).getToolCalls().get(0);
      assertThat(call.name()).isEqualTo("weather");
      assertThat(call.arguments()).isEqualTo("{\"city\":\"Paris\"}");
      ToolResponseMessage.ToolResponse result = ((ToolResponseMessage) after.get(2)).getResponses().get(0);
      assertThat(result.id()).isEqualTo(call.id());
      assertThat(result.responseData()).contains("sunny in Paris");
      assertThat(after.get(3).getText()).isEqualTo("It is \"sunny in Paris\".");
      assertThat(restarted.getBean(ChatMemoryRepository.class).findConversationIds()).contains("trip");
    }
  }
}
