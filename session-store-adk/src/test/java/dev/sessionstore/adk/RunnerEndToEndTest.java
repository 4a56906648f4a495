package dev.sessionstore.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.agents.LlmAgent;
import com.google.adk.agents.RunConfig;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.events.Event;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.Session;
import com.google.adk.tools.FunctionTool;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ADK end to end: a {@link Runner} with an {@link LlmAgent} on a {@link ScriptedModel} that calls a function tool,
 * two turns that change state in every scope (the run's own state delta, the tool's context, the agent's output
 * key), then a new service over a new store instance on the same database resumes the session.
 */
class RunnerEndToEndTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("two turns with a tool, then a new service on the same database resumes events and state")
  void twoTurnsThenResume(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      ScriptedModel model = new ScriptedModel();
      service.createSession("travel", "ada", Map.of("user:name", "Ada"), "trip").blockingGet();

      List<Event> first = turn(runner(model, service), "Paris", Map.of("turn", 1, "app:greeting", "hello"));
      List<Event> second = turn(runner(model, service), "Rome", Map.of("turn", 2, "temp:request", "r2"));
      assertThat(first).last().extracting(Event::stringifyContent).isEqualTo("Noted: Paris");
      assertThat(second).last().extracting(Event::stringifyContent).isEqualTo("Noted: Rome");

      BaseSessionService resumed = database.service();
      Session session = resumed.getSession("travel", "ada", "trip", Optional.empty()).blockingGet();
      assertThat(session.events()).hasSize(8);
      assertThat(session.events()).extracting(Event::id).containsExactlyElementsOf(
          service.listEvents("travel", "ada", "trip").blockingGet().events().stream().map(Event::id).toList());
      assertThat(session.events().get(1).functionCalls()).extracting(call -> call.name().orElseThrow())
          .containsExactly("remember_city");
      assertThat(session.events().get(2).functionResponses()).hasSize(1);
      assertThat(session.state())
          .containsEntry("turn", 2)
          .containsEntry("last_city", "Rome")
          .containsEntry("answer", "Noted: Rome")
          .containsEntry("user:name", "Ada")
          .containsEntry("user:cities", 2)
          .containsEntry("app:greeting", "hello")
          .containsEntry("app:calls", 2)
          .doesNotContainKeys("temp:scratch", "temp:request");
      assertThat(resumed.getSession("travel", "grace", "trip", Optional.empty()).blockingGet()).isNull();
      Session other = resumed.createSession("travel", "grace").blockingGet();
      assertThat(other.state()).containsEntry("app:calls", 2).doesNotContainKeys("user:name", "user:cities");

      int before = model.contentsSeen.size();
      List<Event> third = turn(runner(model, resumed), "Oslo", Map.of("turn", 3));
      assertThat(third).last().extracting(Event::stringifyContent).isEqualTo("Noted: Oslo");
      // the resumed history reached the model: 8 stored events' contents and the new message
      assertThat(model.contentsSeen.get(before)).isGreaterThanOrEqualTo(9);
      assertThat(resumed.getSession("travel", "ada", "trip", Optional.empty()).blockingGet().state())
          .containsEntry("user:cities", 3).containsEntry("app:calls", 3).containsEntry("last_city", "Oslo");
    }
  }

  private static Runner runner(ScriptedModel model, BaseSessionService service) {
    LlmAgent agent = LlmAgent.builder().name("travel_agent").model(model)
        .instruction("Remember the cities the user names.")
        .tools(FunctionTool.create(CityTool.class, "rememberCity"))
        .outputKey("answer")
        .build();
    return Runner.builder().agent(agent).appName("travel").artifactService(new InMemoryArtifactService())
        .sessionService(service).build();
  }

  private static List<Event> turn(Runner runner, String text, Map<String, Object> stateDelta) {
    return runner.runAsync("ada", "trip", Content.builder().role("user").parts(Part.fromText(text)).build(),
        RunConfig.builder().build(), stateDelta).toList().blockingGet();
  }
}
