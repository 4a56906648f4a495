package dev.sessionstore.adk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.GetSessionConfig;
import com.google.adk.sessions.ListSessionsResponse;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.SessionNotFoundException;
import com.google.adk.sessions.State;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scenarios of ADK 1.8.0's own {@code InMemorySessionServiceTest}, one test each under the same name, run
 * against {@link SessionStoreSessionService} on every backend. Where this service follows ADK's javadoc or ADK Python
 * rather than the in-memory service, the assertion says so (module README, "Deviations"): {@code temp:} keys are on
 * the caller's object but never returned by {@code getSession}; {@code listEvents} of an unknown session fails. The original used the placeholder prefixes {@code _app_} and
 * {@code _user_}, which ADK treats as session keys; the port uses ADK's real {@code app:} and {@code user:}. The two
 * tests that inspected the in-memory service's private maps check the same outcome through the store.
 */
class InMemoryServiceScenariosTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("lifecycle_noSession: an unknown session is not found, listed or read")
  void lifecycle_noSession(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      assertThat(service.getSession("app-name", "user-id", "session-id", Optional.empty()).blockingGet()).isNull();
      assertThat(service.listSessions("app-name", "user-id").blockingGet().sessions()).isEmpty();
      // deviation: BaseSessionService documents SessionNotFoundException; the in-memory service returns no events
      assertThatThrownBy(() -> service.listEvents("app-name", "user-id", "session-id").blockingGet())
          .isInstanceOf(SessionNotFoundException.class);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("lifecycle_createSession: a new session has an id, its app and user, and no state")
  void lifecycle_createSession(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      Session session = database.service().createSession("app-name", "user-id").blockingGet();
      assertThat(session.id()).isNotBlank();
      assertThat(session.appName()).isEqualTo("app-name");
      assertThat(session.userId()).isEqualTo("user-id");
      assertThat(session.state()).isEmpty();
      assertThat(session.events()).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("lifecycle_getSession: a created session is read back by its id")
  void lifecycle_getSession(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session session = service.createSession("app-name", "user-id").blockingGet();
      Session retrieved = service.getSession(session.appName(), session.userId(), session.id(), Optional.empty())
          .blockingGet();
      assertThat(retrieved).isNotNull();
      assertThat(retrieved.id()).isEqualTo(session.id());
      assertThat(retrieved.lastUpdateTime()).isEqualTo(session.lastUpdateTime());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("lifecycle_listSessions: a listed session has its id, its merged state and no events")
  void lifecycle_listSessions(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session session = service.createSession("app-name", "user-id", new HashMap<>(), "session-1").blockingGet();
      Event event = Event.builder().timestamp(7_000).actions(
          EventActions.builder().stateDelta(allScopes("Value")).build()).build();
      service.appendEvent(session, event).blockingGet();

      ListSessionsResponse response = service.listSessions(session.appName(), session.userId()).blockingGet();

      assertThat(response.sessions()).hasSize(1);
      Session listed = response.sessions().get(0);
      assertThat(listed.id()).isEqualTo("session-1");
      assertThat(listed.appName()).isEqualTo("app-name");
      assertThat(listed.userId()).isEqualTo("user-id");
      assertThat(listed.events()).isEmpty();
      assertThat(listed.lastUpdateTime()).isEqualTo(Instant.ofEpochMilli(7_000));
      // the merged state, as the in-memory service lists it (deviation: temp: keys are never stored)
      assertThat(listed.state()).containsOnly(Map.entry("sessionKey", "sessionValue"),
          Map.entry("app:appKey", "appValue"), Map.entry("user:userKey", "userValue"));
      Session other = service.createSession("app-name", "user-id", new HashMap<>(Map.of("own", 1)), "session-2")
          .blockingGet();
      assertThat(service.listSessions("app-name", "user-id").blockingGet().sessions())
          .filteredOn(s -> s.id().equals(other.id())).singleElement()
          .satisfies(s -> assertThat(s.state()).containsOnly(Map.entry("own", 1),
              Map.entry("app:appKey", "appValue"), Map.entry("user:userKey", "userValue")));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("lifecycle_deleteSession: a deleted session is gone")
  void lifecycle_deleteSession(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session session = service.createSession("app-name", "user-id").blockingGet();
      service.deleteSession(session.appName(), session.userId(), session.id()).blockingAwait();
      assertThat(service.getSession(session.appName(), session.userId(), session.id(), Optional.empty())
          .blockingGet()).isNull();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("appendEvent_updatesSessionState: every scope on the caller's object; getSession has all but temp:")
  void appendEvent_updatesSessionState(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session session = service.createSession("app", "user", new HashMap<>(), "session1").blockingGet();
      Event event = Event.builder().actions(EventActions.builder().stateDelta(allScopes("Value")).build()).build();

      service.appendEvent(session, event).blockingGet();

      assertThat(session.state()).containsEntry("sessionKey", "sessionValue").containsEntry("app:appKey", "appValue")
          .containsEntry("user:userKey", "userValue").containsEntry("temp:tempKey", "tempValue");
      Session retrieved = service.getSession("app", "user", "session1", Optional.empty()).blockingGet();
      assertThat(retrieved.state()).containsEntry("sessionKey", "sessionValue")
          .containsEntry("app:appKey", "appValue").containsEntry("user:userKey", "userValue");
      // deviation: temp: keys are never stored (ADK's javadoc and Python); the in-memory service returns them
      assertThat(retrieved.state()).doesNotContainKey("temp:tempKey");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("appendEvent_removesState: State.REMOVED removes a key in every scope")
  void appendEvent_removesState(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session session = service.createSession("app", "user", new HashMap<>(), "session1").blockingGet();
      service.appendEvent(session, Event.builder().actions(
          EventActions.builder().stateDelta(allScopes("Value")).build()).build()).blockingGet();
      Session added = service.getSession("app", "user", "session1", Optional.empty()).blockingGet();
      assertThat(added.state()).containsEntry("sessionKey", "sessionValue").containsEntry("app:appKey", "appValue")
          .containsEntry("user:userKey", "userValue");

      ConcurrentMap<String, Object> removals = new ConcurrentHashMap<>();
      for (String key : allScopes("Value").keySet()) {
        removals.put(key, State.REMOVED);
      }
      service.appendEvent(session, Event.builder().actions(EventActions.builder().stateDelta(removals).build())
          .build()).blockingGet();

      Session removed = service.getSession("app", "user", "session1", Optional.empty()).blockingGet();
      assertThat(removed.state()).doesNotContainKeys("sessionKey", "app:appKey", "user:userKey", "temp:tempKey");
      assertThat(session.state()).doesNotContainKeys("sessionKey", "app:appKey", "user:userKey", "temp:tempKey");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("appendEvent_updatesSessionTimestampWithFractionalSeconds: last update time is the event's, to the ms")
  void appendEvent_updatesSessionTimestampWithFractionalSeconds(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session session = service.createSession("app", "user", new HashMap<>(), "session1").blockingGet();
      service.appendEvent(session, Event.builder().timestamp(5500).build()).blockingGet();
      Session retrieved = service.getSession("app", "user", "session1", Optional.empty()).blockingGet();
      assertThat(retrieved.lastUpdateTime()).isEqualTo(Instant.ofEpochSecond(5, 500_000_000L));
      assertThat(session.lastUpdateTime()).isEqualTo(Instant.ofEpochSecond(5, 500_000_000L));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("sequentialAgents_shareTempState: temp: keys pass between agents on the object, never stored")
  void sequentialAgents_shareTempState(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session session = service.createSession("app", "user", new HashMap<>(), "session1").blockingGet();
      service.appendEvent(session, Event.builder().actions(EventActions.builder()
          .stateDelta(Map.of("temp:agent1_output", "data")).build()).build()).blockingGet();
      assertThat(session.state()).containsEntry("temp:agent1_output", "data");

      ConcurrentMap<String, Object> second = new ConcurrentHashMap<>();
      second.put("temp:agent2_output", "processed_data");
      second.put("temp:agent1_output", State.REMOVED);
      service.appendEvent(session, Event.builder().actions(EventActions.builder().stateDelta(second).build())
          .build()).blockingGet();

      assertThat(session.state()).doesNotContainKey("temp:agent1_output")
          .containsEntry("temp:agent2_output", "processed_data");
      Session retrieved = service.getSession("app", "user", "session1", Optional.empty()).blockingGet();
      // deviation: the in-memory service returns temp:agent2_output here; temp: keys are never stored
      assertThat(retrieved.state()).doesNotContainKeys("temp:agent1_output", "temp:agent2_output");
      assertThat(retrieved.events()).allSatisfy(event ->
          assertThat(event.actions().stateDelta()).doesNotContainKeys("temp:agent1_output", "temp:agent2_output"));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("deleteSession_cleansUpEmptyParentMaps: deleting a user's only session leaves nothing of it stored")
  void deleteSession_cleansUpEmptyParentMaps(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      SessionStoreSessionService service = SessionStoreSessionService.builder(database.open()).build();
      Session session = service.createSession("app-name", "user-id").blockingGet();
      service.deleteSession("app-name", "user-id", session.id()).blockingAwait();
      assertThat(service.listSessions("app-name", "user-id").blockingGet().sessions()).isEmpty();
      assertThat(database.open().sessions().find(ScopeIds.session("app-name", "user-id", session.id()))).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("deleteSession_doesNotRemoveUserMapWhenOtherSessionsExist: the user's other session stays")
  void deleteSession_doesNotRemoveUserMapWhenOtherSessionsExist(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session first = service.createSession("app-name", "user-id").blockingGet();
      Session second = service.createSession("app-name", "user-id").blockingGet();
      service.deleteSession("app-name", "user-id", first.id()).blockingAwait();
      assertThat(service.getSession("app-name", "user-id", second.id(), Optional.empty()).blockingGet()).isNotNull();
      assertThat(service.listSessions("app-name", "user-id").blockingGet().sessionIds()).containsExactly(second.id());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("getSession_numRecentEventsAndAfterTimestamp_appliesBothFilters: the tail, then the time filter")
  void getSession_numRecentEventsAndAfterTimestamp_appliesBothFilters(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session session = service.createSession("app", "user").blockingGet();
      for (long timestamp : new long[] {100, 200, 300, 400, 500}) {
        service.appendEvent(session, Event.builder().timestamp(timestamp).build()).blockingGet();
      }
      GetSessionConfig config = GetSessionConfig.builder().numRecentEvents(4)
          .afterTimestamp(Instant.ofEpochMilli(300)).build();
      Session retrieved = service.getSession("app", "user", session.id(), Optional.of(config)).blockingGet();
      assertThat(retrieved.events()).extracting(Event::timestamp).containsExactly(300L, 400L, 500L);
    }
  }

  /** One key per scope: {@code sessionKey}, {@code app:appKey}, {@code user:userKey}, {@code temp:tempKey}. */
  static ConcurrentMap<String, Object> allScopes(String suffix) {
    ConcurrentMap<String, Object> delta = new ConcurrentHashMap<>();
    delta.put("sessionKey", "session" + suffix);
    delta.put("app:appKey", "app" + suffix);
    delta.put("user:userKey", "user" + suffix);
    delta.put("temp:tempKey", "temp" + suffix);
    return delta;
  }
}
