package dev.sessionstore.spring.boot;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * A chat model answering by rule, recording every prompt: a question about the weather gets a call of the
 * {@code weather} tool, a tool result gets an answer quoting it, anything else an acknowledgement. Its default options
 * are tool-calling options, as those of every model that calls tools are (Spring AI 2.0's tool loop runs only on them).
 */
class ScriptedChatModel implements ChatModel {

  final List<Prompt> prompts = new CopyOnWriteArrayList<>();

  /** Spring AI 2.0's {@code ChatModel.getOptions()}, which its {@code ChatClient} reads (1.1 has no such method). */
  public ChatOptions getOptions() {
    return ToolCallingChatOptions.builder().build();
  }

  @Override
  public ChatResponse call(Prompt prompt) {
    prompts.add(prompt);
    List<Message> messages = prompt.getInstructions();
    Message last = messages.get(messages.size() - 1);
    AssistantMessage answer;
    if (last instanceof ToolResponseMessage tool) {
      answer = new AssistantMessage("It is " + tool.getResponses().get(0).responseData() + ".");
    } else if (last.getText().contains("weather")) {
      answer = AssistantMessage.builder().content("").toolCalls(List.of(
          new AssistantMessage.ToolCall("call-" + prompts.size(), "function", "weather", "{\"city\":\"Paris\"}")))
          .build();
    } else {
      answer = new AssistantMessage("You are welcome.");
    }
    return new ChatResponse(List.of(new Generation(answer)));
  }
}
