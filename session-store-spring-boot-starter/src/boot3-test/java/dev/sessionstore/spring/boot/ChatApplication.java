package dev.sessionstore.spring.boot;

import java.util.List;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * A chat application as a user writes one with the starter: a {@link ChatClient} with
 * {@link MessageChatMemoryAdvisor} over the auto-configured {@code MessageWindowChatMemory}, a tool, and Spring AI's
 * user-controlled tool execution, so that the tool call and its result reach the chat memory (Spring AI 1.1's advisor
 * does not store them when the model executes tools internally).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ScriptedChatModel.class)
class ChatApplication {

  @Bean
  ChatClient chatClient(ChatModel chatModel, ChatMemory chatMemory) {
    return ChatClient.builder(chatModel).defaultAdvisors(MessageChatMemoryAdvisor.builder(chatMemory).build()).build();
  }

  @Bean
  ToolCallingManager toolCallingManager() {
    return ToolCallingManager.builder().build();
  }

  @Bean
  ToolCallingChatOptions chatOptions() {
    return ToolCallingChatOptions.builder()
        .toolCallbacks(WeatherTool.callback())
        .internalToolExecutionEnabled(false)
        .build();
  }

  /** One turn, as Spring AI's documentation of user-controlled tool execution with chat memory shows it. */
  static String turn(org.springframework.context.ApplicationContext context, String conversationId, String question) {
    ChatClient client = context.getBean(ChatClient.class);
    ChatModel model = context.getBean(ChatModel.class);
    ChatMemory memory = context.getBean(ChatMemory.class);
    ToolCallingManager tools = context.getBean(ToolCallingManager.class);
    ToolCallingChatOptions options = context.getBean(ToolCallingChatOptions.class);

    ChatResponse response = client.prompt().user(question).options(options)
        .advisors(advisor -> advisor.param(ChatMemory.CONVERSATION_ID, conversationId)).call().chatResponse();
    while (response.hasToolCalls()) {
      ToolExecutionResult result = tools.executeToolCalls(new Prompt(memory.get(conversationId), options), response);
      List<Message> history = result.conversationHistory();
      memory.add(conversationId, history.get(history.size() - 1));
      response = model.call(new Prompt(memory.get(conversationId), options));
      memory.add(conversationId, response.getResult().getOutput());
    }
    return response.getResult().getOutput().getText();
  }
}
