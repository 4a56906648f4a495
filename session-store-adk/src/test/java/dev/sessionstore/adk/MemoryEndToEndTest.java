package dev.sessionstore.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.agents.LlmAgent;
import com.google.adk.agents.RunConfig;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.Session;
import com.google.adk.tools.LoadMemoryTool;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ADK end to end: a {@link Runner} with an {@link LlmAgent} holding ADK's {@link LoadMemoryTool} on a
 * {@link QueuedModel}, the sessions in {@link SessionStoreSessionService} and memory in
 * {@link SessionStoreMemoryService} over the same store. The first test is ADK 1.8.0's {@code AgentWithMemoryTest};
 * the second the scenario of ADK's memory documentation (a fact said in one session, recalled in another), with
 * another user's fact that must not be recalled and a restart between the two.
 */
class MemoryEndToEndTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("agentRemembersUserNameWithMemoryTool: load_memory hands the model what the user said")
  void agentRemembersUserNameWithMemoryTool(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      QueuedModel model = new QueuedModel().says("OK, I'll remember that.")
          .calls("loadMemory", Map.of("query", "what is my name?")).says("Your name is James.");
      BaseSessionService sessions = database.service();
      BaseMemoryService memory = database.memory();
      Runner runner = runner(model, sessions, memory, "test_agent");
      String sessionId = sessions.createSession("test_agent", "test-user").blockingGet().id();

      turn(runner, "test-user", sessionId, "My name is James");
      Session updated = sessions.getSession("test_agent", "test-user", sessionId, Optional.empty()).blockingGet();
      memory.addSessionToMemory(updated).blockingAwait();
      turn(runner, "test-user", sessionId, "what is my name?");

      assertThat(model.lastFunctionResponse("loadMemory")).contains("My name is James");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("a fact said in one session is recalled in another after a restart, never another user's")
  void factRecalledAcrossSessions(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      QueuedModel capture = new QueuedModel().says("Noted.").says("Noted.");
      BaseSessionService sessions = database.service();
      BaseMemoryService memory = database.memory();
      Runner first = runner(capture, sessions, memory, "memory_example_app");
      sessions.createSession("memory_example_app", "mem_user", Map.of(), "session_info").blockingGet();
      sessions.createSession("memory_example_app", "other_user", Map.of(), "session_other").blockingGet();
      turn(first, "mem_user", "session_info", "My favorite project is Project Alpha.");
      turn(first, "other_user", "session_other", "My favorite project is Project Omega.");
      for (String[] owner : new String[][] {{"mem_user", "session_info"}, {"other_user", "session_other"}}) {
        memory.addSessionToMemory(sessions.getSession("memory_example_app", owner[0], owner[1], Optional.empty())
            .blockingGet()).blockingAwait();
      }

      // a restart: new services over new store instances on the same database
      BaseSessionService resumedSessions = database.service();
      BaseMemoryService resumedMemory = database.memory();
      QueuedModel recall = new QueuedModel().calls("loadMemory", Map.of("query", "favorite project"))
          .says("Your favorite project is Project Alpha.");
      Runner second = runner(recall, resumedSessions, resumedMemory, "memory_example_app");
      resumedSessions.createSession("memory_example_app", "mem_user", Map.of(), "session_recall").blockingGet();
      turn(second, "mem_user", "session_recall", "What is my favorite project?");

      String recalled = recall.lastFunctionResponse("loadMemory");
      assertThat(recalled).contains("My favorite project is Project Alpha.")
          .doesNotContain("Omega")
          .as("the asking session was not added to memory").doesNotContain("What is my favorite project?");
    }
  }

  private static Runner runner(QueuedModel model, BaseSessionService sessions, BaseMemoryService memory,
      String app) {
    LlmAgent agent = LlmAgent.builder().name("memory_agent").model(model)
        .instruction("Answer the user's question. Use the load_memory tool if the answer might be in past"
            + " conversations.")
        .tools(List.of(new LoadMemoryTool()))
        .build();
    return Runner.builder().agent(agent).appName(app).artifactService(new InMemoryArtifactService())
        .sessionService(sessions).memoryService(memory).build();
  }

  private static void turn(Runner runner, String user, String sessionId, String text) {
    runner.runAsync(user, sessionId, Content.builder().role("user").parts(Part.fromText(text)).build(),
        RunConfig.builder().build()).toList().blockingGet();
  }
}
