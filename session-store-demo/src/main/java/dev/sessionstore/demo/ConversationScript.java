package dev.sessionstore.demo;

import dev.sessionstore.CheckpointKey;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Resolution;
import dev.sessionstore.Revival;
import dev.sessionstore.RunStatus;
import dev.sessionstore.RunWrite;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.StepResult;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One agent conversation, scripted: a planner agent and a researcher agent help a user plan a weekend in Lisbon.
 * Each step calls the public API the way an agent runtime would and prints what the store returned.
 *
 * <p>The script owns its ids, so run it on an empty store.
 */
final class ConversationScript {

  static final String SESSION_ID = "trip-lisbon";
  static final String FORK_ID = "trip-lisbon-rainy";
  static final String TOOL_CALL_ID = "call-weather-1";
  static final String TURN_STATE = "turn-state";

  private static final String FIRST_RUN = "run-1";
  private static final String SECOND_RUN = "run-2";
  private static final String PLANNER = "planner";
  private static final String RESEARCHER = "researcher";
  private static final Duration APPEND_DELAY = Duration.ofMillis(250);
  private static final Duration WAIT_TIMEOUT = Duration.ofSeconds(5);

  /** The payloads of the script, as an agent runtime would model them: records that Jackson maps to JSON. */
  record Text(String text) {
  }

  record Settings(String model, double temperature, String resume_policy) {
  }

  record ToolUse(String tool, String call, String city) {
  }

  record WeatherQuery(String city, String day) {
  }

  record Forecast(String forecast, int high_c) {
  }

  record Usage(int input_tokens, int output_tokens) {
  }

  private final SessionStore store;
  private final TranscriptPrinter print;

  ConversationScript(SessionStore store, TranscriptPrinter print) {
    this.store = store;
    this.print = print;
  }

  /** Runs every step in order and returns what the caller cannot read back from the store. */
  DemoOutcome run() throws InterruptedException {
    createSession();
    startRun();
    appendFirstTurn();
    retryAndConflict();
    requestToolCall();
    Resolution first = answerToolCall();
    Resolution late = answerLate();
    finishFirstTurn();
    secondTurn();
    summarizeFirstTurn();
    revive();
    pageBackOneChapter();
    forkAndDiverge();
    editMessageInFork();
    saveAndLoadTurnState();
    WaitingRead.WakeUp wakeUp = waitForNextEvent();
    listSessions();
    return new DemoOutcome(first, late, wakeUp);
  }

  private void createSession() {
    print.step("Create a session (named, with settings and metadata)");
    Session session = store.sessions().save(SessionWrite.of(SESSION_ID)
        .withName("Lisbon weekend")
        .withAgentId(PLANNER)
        .withSettings(Json.from(new Settings("demo-model", 0.2, "eager")))
        .withMetadata(Map.of("user", "ana", "channel", "cli")));
    print.session(session);
    print.field("resume eagerly", store.sessions().listResumable());
  }

  private void startRun() {
    print.step("Start a run");
    store.runs().save(RunWrite.of(FIRST_RUN, SESSION_ID).withStatus(RunStatus.RUNNING));
    printActiveRun();
  }

  private List<NewEvent> firstTurnBatch() {
    return List.of(
        event("ev-01", "user_message", null, null,
            new Text("Plan Saturday in Lisbon for two. Outdoors if the weather allows.")).withRunId(FIRST_RUN),
        event("ev-02", "assistant_message", PLANNER, "ev-01",
            new Text("Asking the researcher for Saturday's forecast first.")).withRunId(FIRST_RUN));
  }

  private void appendFirstTurn() {
    print.step("Append the first turn as one atomic batch (user, planner)");
    print.events(store.events().appendAll(SESSION_ID, firstTurnBatch()));
  }

  private void retryAndConflict() {
    print.step("Retry the same batch, then append with a stale expected seq");
    List<Event> replayed = store.events().appendAll(SESSION_ID, firstTurnBatch());
    print.field("replayed batch", "returned seqs " + seqs(replayed) + ", stored nothing new");
    print.field("last seq", store.events().lastSeq(SESSION_ID));
    try {
      store.events().append(SESSION_ID, event("ev-x", "user_message", null, null, new Text("hello?")), 1);
    } catch (SeqConflictException conflict) {
      print.field("expected seq 1", "SeqConflictException: actual seq " + conflict.actualSeq() + ", nothing stored");
    }
  }

  /**
   * The request step: the researcher's tool_use event, the pending call it requests (with a deadline) and the run
   * waiting for it, in one atomic commit. A crash cannot leave a tool_use event without its pending call.
   */
  private void requestToolCall() {
    print.step("Step 1, one atomic commit: the tool_use event, its pending call with a deadline, the run waiting");
    NewEvent toolUse = event("ev-03", "tool_use", RESEARCHER, "ev-02",
        new ToolUse("get_weather", TOOL_CALL_ID, "Lisbon"))
        .withRunId(FIRST_RUN);
    StepResult request = committed(store.commit(Step.builder(SESSION_ID)
        .run(RunWrite.of(FIRST_RUN, SESSION_ID).withStatus(RunStatus.WAITING))
        .event(toolUse)
        .registerToolCall(ToolCallWrite.of(TOOL_CALL_ID, SESSION_ID, "get_weather")
            .withRunId(FIRST_RUN)
            .withRequestEventId(toolUse.id())
            .withArguments(Json.from(new WeatherQuery("Lisbon", "saturday")))
            .withDeadline(Instant.now().plus(Duration.ofMinutes(10))))
        .expectLastSeq(store.events().lastSeq(SESSION_ID))
        .build()));
    print.events(request.events());
    print.note("pending tool calls:");
    store.toolCalls().pending(SESSION_ID).forEach(print::toolCall);
    printActiveRun();
  }

  /**
   * The answer step: the resolution and the tool_result event in one atomic commit, so the result can never be
   * stored without reaching the log, nor the other way round.
   */
  private Resolution answerToolCall() {
    print.step("Step 2, one atomic commit: the weather tool answers (resolve + tool_result event)");
    StepResult answer = committed(store.commit(Step.builder(SESSION_ID)
        .resolve(TOOL_CALL_ID, ToolCallStatus.COMPLETED, Json.from(new Forecast("sunny", 24)))
        .event(event("ev-04", "tool_result", RESEARCHER, "ev-03", new Forecast("sunny", 24))
            .withRunId(FIRST_RUN))
        .run(RunWrite.of(FIRST_RUN, SESSION_ID).withStatus(RunStatus.RUNNING))
        .build()));
    Resolution resolution = answer.resolutions().get(0);
    print.resolution("resolve", resolution);
    print.events(answer.events());
    print.field("pending now", store.toolCalls().pending(SESSION_ID).size());
    return resolution;
  }

  /** A late answer to the settled call: the whole step is rejected, its tool_result event is not stored. */
  private Resolution answerLate() {
    print.step("A retried worker answers the same call late: the whole step is rejected");
    StepOutcome outcome = store.commit(Step.builder(SESSION_ID)
        .resolve(TOOL_CALL_ID, ToolCallStatus.FAILED, Json.from(Map.of("error", "timeout")))
        .event(event("ev-04-late", "tool_result", RESEARCHER, "ev-03", Map.of("error", "timeout")))
        .build());
    Resolution resolution = outcome instanceof StepOutcome.Rejected rejected
        ? rejected.stale().get(0) : committed(outcome).resolutions().get(0);
    print.resolution("late resolve", resolution);
    print.field("last seq", store.events().lastSeq(SESSION_ID) + " (the late tool_result was not stored)");
    return resolution;
  }

  private static StepResult committed(StepOutcome outcome) {
    if (outcome instanceof StepOutcome.Committed committed) {
      return committed.result();
    }
    throw new IllegalStateException("the step was rejected: " + outcome);
  }

  private void finishFirstTurn() {
    print.step("Append the answer; complete the run");
    List<Event> appended = store.events().appendAll(SESSION_ID, List.of(
        event("ev-05", "assistant_message", PLANNER, "ev-04",
            new Text("Sunny, 24C: Belem in the morning, Alfama and a miradouro at sunset."))
            .withRunId(FIRST_RUN)));
    print.events(appended);
    store.runs().save(RunWrite.of(FIRST_RUN, SESSION_ID)
        .withStatus(RunStatus.COMPLETED)
        .withUsage(Json.from(new Usage(812, 164))));
    printActiveRun();
  }

  private void secondTurn() {
    print.step("Second turn, appended with the expected last seq");
    store.runs().save(RunWrite.of(SECOND_RUN, SESSION_ID).withStatus(RunStatus.RUNNING));
    long last = store.events().lastSeq(SESSION_ID);
    Event question = store.events().append(SESSION_ID,
        event("ev-06", "user_message", null, "ev-05", new Text("Make it cheaper: no taxis."))
            .withRunId(SECOND_RUN),
        last);
    Event answer = store.events().append(SESSION_ID,
        event("ev-07", "assistant_message", PLANNER, "ev-06",
            new Text("Tram 28 to Alfama, walk to Belem along the river.")).withRunId(SECOND_RUN),
        question.seq());
    print.events(List.of(question, answer));
    printActiveRun();
  }

  private void summarizeFirstTurn() {
    print.step("Compact: store a summary of seqs 1..5");
    Summary summary = store.summaries().put(SESSION_ID, NewSummary.of(1, 5,
        Json.from(new Text("Ana plans a sunny Saturday in Lisbon for two: Belem, Alfama, a miradouro."))));
    print.field("summary", "seqs " + summary.fromSeq() + ".." + summary.toSeq() + "  " + summary.content());
  }

  private void revive() {
    print.step("Revive the agent: the latest summary and the events after it, in one call");
    Revival revival = store.summaries().revive(SESSION_ID);
    print.field("summary", revival.summary().map(s -> "seqs " + s.fromSeq() + ".." + s.toSeq()).orElse("none"));
    print.events(revival.events());
  }

  private void pageBackOneChapter() {
    print.step("Page back one chapter: the events the summary closes");
    store.summaries().chapter(SESSION_ID, 5).ifPresent(chapter -> {
      print.field("previous summary", chapter.previous()
          .map(s -> "up to seq " + s.toSeq()).orElse("none (start of the log)"));
      print.events(chapter.events());
    });
  }

  private void forkAndDiverge() {
    print.step("Fork at seq 5 and let the fork diverge");
    Session fork = store.sessions().fork(SESSION_ID, 5, FORK_ID);
    print.field("fork", fork.id() + " (forked from " + SESSION_ID + " @ seq "
        + fork.forkOrigin().map(origin -> origin.seq()).orElseThrow() + ")");
    store.events().appendAll(FORK_ID, List.of(
        event("rain-06", "user_message", null, "ev-05", new Text("What if it rains?")),
        event("rain-07", "assistant_message", PLANNER, "rain-06",
            new Text("Then the tile museum and a long lunch in Chiado."))));
    print.note("parent log, seq 4 on:");
    print.events(store.events().read(SESSION_ID, EventQuery.all().after(3)).items());
    print.note("fork log, seq 4 on:");
    print.events(store.events().read(FORK_ID, EventQuery.all().after(3)).items());
  }

  private void editMessageInFork() {
    print.step("Edit a message in the fork: cut at seq 6 and append the new text");
    int removed = store.events().truncate(FORK_ID, 6);
    print.field("removed events", removed);
    store.events().append(FORK_ID,
        event("rain-06b", "user_message", null, "ev-05", new Text("What if it rains all weekend?")));
    print.events(store.events().read(FORK_ID, EventQuery.all().last(2)).items());
  }

  private void saveAndLoadTurnState() {
    print.step("Save and load the suspended turn state (a checkpoint)");
    CheckpointKey key = CheckpointKey.of(SESSION_ID, TURN_STATE);
    byte[] state = "{\"phase\": \"awaiting_user\", \"run\": \"run-2\", \"last_seq\": 7}"
        .getBytes(StandardCharsets.UTF_8);
    store.checkpoints().put(key, state);
    print.field("saved", state.length + " bytes under " + key.sessionId() + " / " + key.name());
    store.checkpoints().get(key).ifPresent(checkpoint ->
        print.field("loaded", new String(checkpoint.data(), StandardCharsets.UTF_8)));
  }

  private WaitingRead.WakeUp waitForNextEvent() throws InterruptedException {
    print.step("Waiting read: a reader waits for the next event while the agent appends one");
    WaitingRead.WakeUp wakeUp = new WaitingRead(store.events(), SESSION_ID).appendWhileWaiting(
        event("ev-08", "user_message", null, "ev-07", new Text("Perfect, book it.")).withRunId(SECOND_RUN),
        APPEND_DELAY, WAIT_TIMEOUT);
    print.field("reader waited for", "events after seq " + wakeUp.afterSeq()
        + " (timeout " + WAIT_TIMEOUT.toSeconds() + " s)");
    print.field("append came after", APPEND_DELAY.toMillis() + " ms");
    print.field("reader woke after", wakeUp.waited().toMillis() + " ms with " + wakeUp.page().items().size()
        + " event(s)");
    print.events(wakeUp.page().items());
    return wakeUp;
  }

  private void listSessions() {
    print.step("List sessions");
    for (Session session : store.sessions().list(SessionQuery.all()).items()) {
      print.field(session.id(), store.events().lastSeq(session.id()) + " events"
          + session.forkOrigin().map(origin -> ", fork of " + origin.sessionId() + " @ seq " + origin.seq())
              .orElse(", " + session.status()));
    }
  }

  private void printActiveRun() {
    print.field("active run", store.runs().active(SESSION_ID)
        .map(run -> run.id() + " " + run.status()).orElse("none"));
  }

  private static NewEvent event(String id, String type, String agentId, String parentId, Object payload) {
    NewEvent event = NewEvent.of(type, Json.from(payload)).withId(id);
    event = agentId == null ? event : event.withAgentId(agentId);
    return parentId == null ? event : event.withParentId(parentId);
  }

  private static String seqs(List<Event> events) {
    return events.stream().map(event -> Long.toString(event.seq())).collect(Collectors.joining(", ", "[", "]"));
  }
}
