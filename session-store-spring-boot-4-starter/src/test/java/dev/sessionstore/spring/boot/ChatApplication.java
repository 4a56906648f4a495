package dev.sessionstore.spring.boot;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * A chat application as a user writes one with the starter on Spring AI 2.0: a {@link ChatClient} with a tool and
 * {@link MessageChatMemoryAdvisor} over the auto-configured {@code MessageWindowChatMemory}, ordered inside the tool
 * loop of the {@link ToolCallingAdvisor} the client registers itself, so that each tool call and its result reach the
 * chat memory (outside the loop, the default, the memory would see only the question and the final answer).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ScriptedChatModel.class)
class ChatApplication {

  @Bean
  ChatClient chatClient(ChatModel chatModel, ChatMemory chatMemory) {
    return ChatClient.builder(chatModel)
        .defaultToolCallbacks(WeatherTool.callback())
        .defaultAdvisors(MessageChatMemoryAdvisor.builder(chatMemory)
            .order(ToolCallingAdvisor.DEFAULT_ORDER + 100).build())
        .build();
  }

  /** One turn: the client's own tool loop runs the tool and stores each step in the memory. */
  static String turn(ApplicationContext context, String conversationId, String question) {
    return context.getBean(ChatClient.class).prompt().user(question)
        .advisors(advisor -> advisor.param(ChatMemory.CONVERSATION_ID, conversationId)).call().content();
  }
}
