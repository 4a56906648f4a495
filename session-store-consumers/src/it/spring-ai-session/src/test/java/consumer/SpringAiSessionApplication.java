package consumer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Boot application as a spring-ai-session user writes it: no repository of its own (the starter's is on the SQLite
 * default), spring-ai-session's SessionService from its own auto-configuration, and a chat model that answers "ok"
 * and records every prompt (no model service).
 */
@SpringBootApplication
public class SpringAiSessionApplication {

  /** The prompts the model received, in order. */
  static final List<Prompt> PROMPTS = new CopyOnWriteArrayList<>();

  @Bean
  ChatModel chatModel() {
    return new ChatModel() {
      @Override
      public ChatResponse call(Prompt prompt) {
        PROMPTS.add(prompt);
        return new ChatResponse(List.of(new Generation(new AssistantMessage("ok"))));
      }

      @Override
      public ChatOptions getOptions() {
        return ChatOptions.builder().build();
      }
    };
  }
}
