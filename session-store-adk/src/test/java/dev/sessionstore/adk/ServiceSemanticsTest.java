package dev.sessionstore.adk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.GetSessionConfig;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.SessionException;
import com.google.adk.sessions.SessionNotFoundException;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What the service adds to the ported scenarios: scopes, ids, idempotency, creation, partial events, reads. */
class ServiceSemanticsTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("the same session id under two users, or two apps, is two sessions; a listing shows only the user's")
  void scopesKeepSessionsApart(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      service.createSession("app", "alice", Map.of("who", "alice"), "s").blockingGet();
      service.createSession("app", "bob", Map.of("who", "bob"), "s").blockingGet();
      service.createSession("other-app", "alice", Map.of("who", "alice elsewhere"), "s").blockingGet();

      assertThat(service.getSession("app", "alice", "s", Optional.empty()).blockingGet().state())
          .containsEntry("who", "alice");
      assertThat(service.getSession("app", "bob", "s", Optional.empty()).blockingGet().state())
          .containsEntry("who", "bob");
      assertThat(service.listSessions("app", "alice").blockingGet().sessions())
          .extracting(Session::userId, Session::appName).containsExactly(org.assertj.core.groups.Tuple.tuple("alice", "app"));
      assertThat(service.getSession("app", "carol", "s", Optional.empty()).blockingGet()).isNull();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("names that would collide when joined with a separator stay apart; very long names work")
  void encodingIsCollisionFree(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      service.createSession("a:b", "c", Map.of("n", 1), "s").blockingGet();
      service.createSession("a", "b:c", Map.of("n", 2), "s").blockingGet();
      service.createSession("a", "b", Map.of("n", 3), "c:s").blockingGet();
      String longName = "x".repeat(1000);
      service.createSession(longName, longName, Map.of("n", 4), longName).blockingGet();

      assertThat(service.getSession("a:b", "c", "s", Optional.empty()).blockingGet().state()).containsEntry("n", 1);
      assertThat(service.getSession("a", "b:c", "s", Optional.empty()).blockingGet().state()).containsEntry("n", 2);
      assertThat(service.getSession("a", "b", "c:s", Optional.empty()).blockingGet().state()).containsEntry("n", 3);
      assertThat(service.getSession(longName, longName, longName, Optional.empty()).blockingGet().state())
          .containsEntry("n", 4);
      assertThat(service.listSessions("a", "b").blockingGet().sessionIds()).containsExactly("c:s");
      assertThat(ScopeIds.session("a:b", "c", "s")).isNotEqualTo(ScopeIds.session("a", "b:c", "s"));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("a second createSession with an existing id fails and changes nothing")
  void createWithExistingIdFails(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      service.createSession("app", "user", Map.of("k", "first"), "s").blockingGet();
      assertThatThrownBy(() -> service.createSession("app", "user", Map.of("k", "second"), "s").blockingGet())
          .isInstanceOf(SessionException.class).hasMessageContaining("already exists");
      assertThat(service.getSession("app", "user", "s", Optional.empty()).blockingGet().state())
          .containsEntry("k", "first");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("initial state goes to its scopes: app: to every user, user: to the user's sessions, temp: nowhere")
  void initialStateIsSplitByScope(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session created = service.createSession("app", "alice", Map.of("mine", 1, "app:theme", "dark",
          "user:lang", "fr", "temp:scratch", "x"), "s1").blockingGet();
      assertThat(created.state()).containsOnlyKeys("mine", "app:theme", "user:lang");

      Session sibling = service.createSession("app", "alice", null, "s2").blockingGet();
      assertThat(sibling.state()).containsOnlyKeys("app:theme", "user:lang");
      Session stranger = service.createSession("app", "bob", null, "s3").blockingGet();
      assertThat(stranger.state()).containsOnlyKeys("app:theme");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("an event appended again is stored once and its deltas are not applied again")
  void retriedAppendIsStoredOnce(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session session = service.createSession("app", "user", null, "s").blockingGet();
      Event first = Event.builder().id("e1").author("user").timestamp(1_000).actions(EventActions.builder()
          .stateDelta(Map.of("k", "first", "user:k", "first", "app:k", "first")).build()).build();
      Event second = Event.builder().id("e2").author("user").timestamp(2_000).actions(EventActions.builder()
          .stateDelta(Map.of("k", "second", "user:k", "second", "app:k", "second")).build()).build();
      service.appendEvent(session, first).blockingGet();
      service.appendEvent(session, second).blockingGet();

      service.appendEvent(session, first).blockingGet();
      service.appendEvent(service.getSession("app", "user", "s", Optional.empty()).blockingGet(), first)
          .blockingGet();

      Session stored = service.getSession("app", "user", "s", Optional.empty()).blockingGet();
      assertThat(stored.events()).extracting(Event::id).containsExactly("e1", "e2");
      assertThat(stored.state()).containsEntry("k", "second").containsEntry("user:k", "second")
          .containsEntry("app:k", "second");
      assertThat(session.events()).extracting(Event::id).containsExactly("e1", "e2");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("an event id reused with other content is refused and changes nothing")
  void reusedIdWithOtherContentFails(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session session = service.createSession("app", "user", null, "s").blockingGet();
      service.appendEvent(session, Event.builder().id("e1").author("user").timestamp(1_000).build()).blockingGet();
      Event other = Event.builder().id("e1").author("model").timestamp(1_000).actions(EventActions.builder()
          .stateDelta(Map.of("k", "v")).build()).build();
      assertThatThrownBy(() -> service.appendEvent(session, other).blockingGet())
          .isInstanceOf(SessionException.class);
      Session stored = service.getSession("app", "user", "s", Optional.empty()).blockingGet();
      assertThat(stored.events()).extracting(Event::author).containsExactly("user");
      assertThat(stored.state()).doesNotContainKey("k");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("events are stored as ADK's JSON and read back equal; an event without an id is given one")
  void eventsRoundTrip(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      SessionStore store = database.open();
      BaseSessionService service = SessionStoreSessionService.builder(store).build();
      Session session = service.createSession("app", "user", null, "s").blockingGet();
      Event call = Event.builder().id("call-1").invocationId("inv-1").author("assistant").timestamp(1_234)
          .content(Content.fromParts(Part.fromText("let me look"), Part.builder().functionCall(FunctionCall.builder()
              .name("lookup").args(Map.of("city", "Paris")).id("fc-1").build()).build()))
          .actions(EventActions.builder().stateDelta(Map.of("asked", true)).build()).build();
      Event noId = Event.builder().author("user").timestamp(2_000).content(Content.fromParts(Part.fromText("hi")))
          .build();
      noId.setId(null);
      service.appendEvent(session, call).blockingGet();
      Event stamped = service.appendEvent(session, noId).blockingGet();

      assertThat(stamped.id()).isNotBlank();
      List<Event> stored = service.listEvents("app", "user", "s").blockingGet().events();
      assertThat(stored).containsExactly(call, noId);
      assertThat(stored.get(0).functionCalls()).extracting(fc -> fc.name().orElseThrow()).containsExactly("lookup");
      dev.sessionstore.Event raw = store.events().find(ScopeIds.session("app", "user", "s"), "call-1").orElseThrow();
      assertThat(raw.payload().text()).isEqualTo(call.toJson());
      assertThat(raw.timestamp()).isEqualTo(Instant.ofEpochMilli(1_234));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("a partial event is neither stored nor applied")
  void partialEventChangesNothing(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session session = service.createSession("app", "user", null, "s").blockingGet();
      Event partial = Event.builder().partial(true).actions(EventActions.builder()
          .stateDelta(Map.of("k", "v", "user:k", "v")).build()).build();
      assertThat(service.appendEvent(session, partial).blockingGet()).isSameAs(partial);
      assertThat(session.state()).isEmpty();
      assertThat(session.events()).isEmpty();
      Session stored = service.getSession("app", "user", "s", Optional.empty()).blockingGet();
      assertThat(stored.events()).isEmpty();
      assertThat(stored.state()).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("a session object behind the store adds its delta and overwrites nothing newer")
  void staleSessionObjectOverwritesNothing(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session fresh = service.createSession("app", "user", Map.of("a", 0, "b", 0), "s").blockingGet();
      Session stale = service.getSession("app", "user", "s", Optional.empty()).blockingGet();
      service.appendEvent(fresh, delta("a", 1)).blockingGet();
      service.appendEvent(stale, delta("b", 1)).blockingGet();
      Session stored = service.getSession("app", "user", "s", Optional.empty()).blockingGet();
      assertThat(stored.state()).containsEntry("a", 1).containsEntry("b", 1);
      assertThat(stored.events()).hasSize(2);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("getSession: numRecentEvents alone reads the tail, afterTimestamp alone filters, state is whole")
  void getSessionConfig(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session session = service.createSession("app", "user", null, "s").blockingGet();
      for (int i = 1; i <= 5; i++) {
        Event event = delta("k" + i, i);
        event.setTimestamp(i * 100L);
        service.appendEvent(session, event).blockingGet();
      }
      Session tail = service.getSession("app", "user", "s",
          Optional.of(GetSessionConfig.builder().numRecentEvents(2).build())).blockingGet();
      assertThat(tail.events()).extracting(Event::timestamp).containsExactly(400L, 500L);
      assertThat(tail.state()).containsKeys("k1", "k2", "k3", "k4", "k5");
      assertThat(tail.lastUpdateTime()).isEqualTo(Instant.ofEpochMilli(500));
      Session recent = service.getSession("app", "user", "s",
          Optional.of(GetSessionConfig.builder().afterTimestamp(Instant.ofEpochMilli(250)).build())).blockingGet();
      assertThat(recent.events()).extracting(Event::timestamp).containsExactly(300L, 400L, 500L);
      Session none = service.getSession("app", "user", "s",
          Optional.of(GetSessionConfig.builder().numRecentEvents(0).build())).blockingGet();
      assertThat(none.events()).isEmpty();
      assertThat(none.lastUpdateTime()).isEqualTo(Instant.ofEpochMilli(500));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("appending to an unknown session fails; deleting one completes")
  void unknownSessions(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseSessionService service = database.service();
      Session ghost = Session.builder("ghost").appName("app").userId("user").build();
      assertThatThrownBy(() -> service.appendEvent(ghost, delta("k", 1)).blockingGet())
          .isInstanceOf(SessionNotFoundException.class);
      service.deleteSession("app", "user", "ghost").blockingAwait();
      assertThat(service.getSession("app", "user", "ghost", Optional.empty()).blockingGet()).isNull();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("shared state folds from a snapshot after many deltas and reads the same")
  void sharedStateSnapshots(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      SessionStore store = database.open();
      BaseSessionService service = SessionStoreSessionService.builder(store).build();
      Session session = service.createSession("app", "user", null, "s").blockingGet();
      int count = StateLog.SNAPSHOT_EVERY + 6;
      for (int i = 0; i < count; i++) {
        service.appendEvent(session, delta("user:n", i)).blockingGet();
        if (i == StateLog.SNAPSHOT_EVERY) {
          assertThat(service.getSession("app", "user", "s", Optional.empty()).blockingGet().state())
              .containsEntry("user:n", i);
        }
      }
      String userLog = ScopeIds.userState("app", "user");
      assertThat(store.events().read(userLog, EventQuery.all()).items()).hasSize(count);
      if (store.supports(dev.sessionstore.Capability.CHECKPOINTS)) {
        assertThat(store.checkpoints().get(dev.sessionstore.CheckpointKey.of(userLog, StateLog.SNAPSHOT)))
            .isPresent();
      }
      assertThat(service.getSession("app", "user", "s", Optional.empty()).blockingGet().state())
          .containsEntry("user:n", count - 1);
    }
  }

  static Event delta(String key, Object value) {
    return Event.builder().author("user").actions(EventActions.builder().stateDelta(Map.of(key, value)).build())
        .build();
  }
}
