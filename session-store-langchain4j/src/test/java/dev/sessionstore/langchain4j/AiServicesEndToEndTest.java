package dev.sessionstore.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An {@code AiServices} assistant whose fake model calls a {@code @Tool} method, with its memory in a
 * {@link SessionStoreChatMemoryStore}, over two turns; then a new store instance over the same database reads the
 * same memory back. Each backend's subclass names the store it runs on.
 */
abstract class AiServicesEndToEndTest {

  /** The assistant interface LangChain4j implements. */
  interface Assistant {
    @dev.langchain4j.service.SystemMessage("You answer with the weather.")
    String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String question);
  }

  /** The tool the model asks for. */
  static final class WeatherTools {
    final List<String> cities = new CopyOnWriteArrayList<>();

    @Tool("The weather in a city")
    String weather(String city) {
      cities.add(city);
      return "sunny in " + city;
    }
  }

  /**
   * A model that asks for the weather tool when the last message is the user's (naming the argument as the tool's
   * specification does), and answers with the tool's result once it has it. It keeps every request's messages.
   */
  static final class FakeModel implements ChatModel {
    final List<List<ChatMessage>> requests = new CopyOnWriteArrayList<>();

    @Override
    public ChatResponse doChat(ChatRequest request) {
      requests.add(List.copyOf(request.messages()));
      ChatMessage last = request.messages().get(request.messages().size() - 1);
      if (last instanceof ToolExecutionResultMessage result) {
        return ChatResponse.builder().aiMessage(AiMessage.from("It is " + result.text() + ".")).build();
      }
      String city = ((UserMessage) last).singleText().replaceAll(".* in ", "").replace("?", "");
      ToolSpecification tool = request.toolSpecifications().get(0);
      String argument = tool.parameters().properties().keySet().iterator().next();
      ToolExecutionRequest call = ToolExecutionRequest.builder().id("call-" + requests.size()).name(tool.name())
          .arguments("{\"" + argument + "\":\"" + city + "\"}").build();
      return ChatResponse.builder().aiMessage(AiMessage.from(call)).build();
    }
  }

  abstract ChatMemoryStoreContract backend();

  @Test
  @DisplayName("two turns with a tool call through AiServices; a new store instance reads the same memory back")
  void twoTurnsWithAToolThenReopen() {
    ChatMemoryStoreContract backend = backend();
    backend.open();
    try {
      SessionStoreChatMemoryStore memoryStore = backend.memoryStore;
      FakeModel model = new FakeModel();
      WeatherTools tools = new WeatherTools();
      Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).tools(tools)
          .chatMemoryProvider(id -> MessageWindowChatMemory.builder().id(id).maxMessages(20)
              .chatMemoryStore(memoryStore).build())
          .build();

      assertThat(assistant.chat("ada", "What is the weather in Paris?")).isEqualTo("It is sunny in Paris.");
      assertThat(assistant.chat("ada", "And in Oslo?")).isEqualTo("It is sunny in Oslo.");

      assertThat(tools.cities).containsExactly("Paris", "Oslo");
      List<ChatMessage> memory = memoryStore.getMessages("ada");
      assertThat(memory).hasSize(9);
      assertThat(memory.get(0)).isEqualTo(SystemMessage.from("You answer with the weather."));
      assertThat(memory.get(1)).isEqualTo(UserMessage.from("What is the weather in Paris?"));
      assertThat(((AiMessage) memory.get(2)).toolExecutionRequests()).hasSize(1);
      ToolExecutionResultMessage result = (ToolExecutionResultMessage) memory.get(3);
      assertThat(result.id()).isEqualTo(((AiMessage) memory.get(2)).toolExecutionRequests().get(0).id());
      assertThat(result.text()).isEqualTo("sunny in Paris");
      assertThat(memory.get(4)).isEqualTo(AiMessage.from("It is sunny in Paris."));
      assertThat(memory.get(5)).isEqualTo(UserMessage.from("And in Oslo?"));
      assertThat(memory.get(8)).isEqualTo(AiMessage.from("It is sunny in Oslo."));
      // the second turn's first request carried the first turn from the store
      assertThat(model.requests.get(2)).isEqualTo(memory.subList(0, 6));
      assertThat(memoryStore.history("ada")).isEqualTo(memory);

      var reopened = backend.reopenStore();
      try {
        assertThat(SessionStoreChatMemoryStore.builder(reopened).build().getMessages("ada")).isEqualTo(memory);
        assertThat(SessionStoreChatMemoryStore.builder(reopened).build().memoryIds()).containsExactly("ada");
      } finally {
        backend.closeReopened(reopened);
      }
      assertThat(new ArrayList<>(model.requests)).hasSize(4);
    } finally {
      backend.close();
    }
  }
}
