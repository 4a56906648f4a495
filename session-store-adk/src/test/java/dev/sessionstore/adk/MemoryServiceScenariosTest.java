package dev.sessionstore.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.MemoryEntry;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scenarios of ADK's own in-memory memory service tests (ADK Python's {@code test_in_memory_memory_service.py};
 * ADK Java 1.8.0 has none besides {@code AgentWithMemoryTest}, ported in {@link MemoryEndToEndTest}), one test each
 * under the same name, run against {@link SessionStoreMemoryService} on every backend. The sessions
 * come from another session service (built as ADK objects), so {@code addSessionToMemory} copies them; the tests that
 * inspected the in-memory service's private maps check the same outcome through a search. Where this service differs
 * the assertion says so (module README, "Memory"). Not ported: the thread-safety test (the store is thread-safe) and
 * the result-mutation test (genai {@code Content} is immutable in Java); {@code add_events_to_memory} is ADK Python
 * API that Java 1.8.0 lacks, its deduplication is checked by adding a session twice.
 */
class MemoryServiceScenariosTest {

  private static final String APP = "test-app";
  private static final String USER = "test-user";
  private static final String OTHER_USER = "another-user";

  private static Event event(String id, String author, long timestamp, String text) {
    Event.Builder builder = Event.builder().id(id).invocationId("inv-" + id).author(author).timestamp(timestamp);
    if (text != null) {
      builder.content(Content.builder().role(author).parts(Part.fromText(text)).build());
    }
    return builder.build();
  }

  private static Session session(String app, String user, String id, Event... events) {
    return Session.builder(id).appName(app).userId(user).events(new ArrayList<>(List.of(events))).build();
  }

  private static Session session1() {
    return session(APP, USER, "session-1",
        event("event-1a", "user", 12_345_000, "The ADK is a great toolkit."),
        // an event with no content: never a memory
        event("event-1b", "user", 12_346_000, null),
        event("event-1c", "model", 12_347_000, "I agree. The Agent Development Kit (ADK) rocks!"));
  }

  private static Session session2() {
    return session(APP, USER, "session-2", event("event-2a", "user", 54_321_000, "I like to code in Python."));
  }

  private static Session otherUsersSession() {
    return session(APP, OTHER_USER, "session-3", event("event-3a", "user", 60_000_000, "This is a secret."));
  }

  private static List<String> texts(BaseMemoryService memory, String app, String user, String query) {
    return memory.searchMemory(app, user, query).blockingGet().memories().stream()
        .map(entry -> entry.content().parts().orElseThrow().get(0).text().orElseThrow()).toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_add_session_to_memory: the events with content are searchable, the one without is not")
  void test_add_session_to_memory(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      memory.addSessionToMemory(session1()).blockingAwait();
      assertThat(texts(memory, APP, USER, "ADK")).containsExactlyInAnyOrder("The ADK is a great toolkit.",
          "I agree. The Agent Development Kit (ADK) rocks!");
      assertThat(database.open().events().read(ScopeIds.memory(APP, USER, "session-1"),
          dev.sessionstore.EventQuery.all()).items()).extracting(dev.sessionstore.Event::id)
          .containsExactly("event-1a", "event-1c");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_add_events_to_memory_deduplicates_event_ids: adding a session again stores no event twice and"
      + " adds its new events")
  void test_add_events_to_memory_deduplicates_event_ids(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      Session session = session1();
      memory.addSessionToMemory(session).blockingAwait();
      session.events().add(event("event-1d", "user", 12_348_000, "A new fact."));
      memory.addSessionToMemory(session).blockingAwait();
      assertThat(database.open().events().read(ScopeIds.memory(APP, USER, "session-1"),
          dev.sessionstore.EventQuery.all()).items()).extracting(dev.sessionstore.Event::id)
          .containsExactly("event-1a", "event-1c", "event-1d");
      assertThat(texts(memory, APP, USER, "fact")).containsExactly("A new fact.");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_add_session_with_no_events_to_memory: adding a session without events succeeds")
  void test_add_session_with_no_events_to_memory(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      memory.addSessionToMemory(session(APP, USER, "session-4")).blockingAwait();
      assertThat(database.open().sessions().find(ScopeIds.memory(APP, USER, "session-4"))).isPresent();
      assertThat(texts(memory, APP, USER, "anything")).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_search_memory_simple_match: one word finds the one event holding it, with its author")
  void test_search_memory_simple_match(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      memory.addSessionToMemory(session1()).blockingAwait();
      memory.addSessionToMemory(session2()).blockingAwait();
      List<MemoryEntry> found = memory.searchMemory(APP, USER, "Python").blockingGet().memories();
      assertThat(found).hasSize(1);
      assertThat(found.get(0).content().parts().orElseThrow().get(0).text()).hasValue("I like to code in Python.");
      assertThat(found.get(0).author()).isEqualTo("user");
      // deviation: ADK Java 1.8.0 reads the millisecond timestamp as seconds; this service writes it as it is
      assertThat(found.get(0).timestamp()).isEqualTo("1970-01-01T15:05:21Z");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_search_memory_case_insensitive_match: a word matches whatever its case")
  void test_search_memory_case_insensitive_match(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      memory.addSessionToMemory(session1()).blockingAwait();
      assertThat(texts(memory, APP, USER, "development"))
          .containsExactly("I agree. The Agent Development Kit (ADK) rocks!");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_search_memory_multiple_matches: a query finds every event holding one of its words")
  void test_search_memory_multiple_matches(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      memory.addSessionToMemory(session1()).blockingAwait();
      assertThat(texts(memory, APP, USER, "How about ADK?")).containsExactlyInAnyOrder(
          "The ADK is a great toolkit.", "I agree. The Agent Development Kit (ADK) rocks!");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_search_memory_no_match: a word no event holds finds nothing")
  void test_search_memory_no_match(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      memory.addSessionToMemory(session1()).blockingAwait();
      assertThat(texts(memory, APP, USER, "nonexistent")).isEmpty();
      assertThat(texts(memory, APP, USER, "?! ...")).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_search_memory_is_scoped_by_user: another user's memory is never found")
  void test_search_memory_is_scoped_by_user(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      memory.addSessionToMemory(session1()).blockingAwait();
      memory.addSessionToMemory(otherUsersSession()).blockingAwait();
      assertThat(texts(memory, APP, USER, "secret")).isEmpty();
      assertThat(texts(memory, "other-app", OTHER_USER, "secret")).isEmpty();
      assertThat(texts(memory, APP, OTHER_USER, "secret")).containsExactly("This is a secret.");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_search_memory_does_not_collide_on_slash_in_identifiers: no app and user pair aliases another")
  void test_search_memory_does_not_collide_on_slash_in_identifiers(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      memory.addSessionToMemory(session("app/other-user", "user", "session-slashed-app",
          event("event-slashed-app", "user", 12_345_000, "This is a secret."))).blockingAwait();
      memory.addSessionToMemory(session("a:b", "c", "s", event("e", "user", 1_000, "colon secret"))).blockingAwait();
      assertThat(texts(memory, "app", "other-user/user", "secret")).isEmpty();
      assertThat(texts(memory, "a", "b:c", "secret")).isEmpty();
      assertThat(texts(memory, "a:b", "c", "secret")).containsExactly("colon secret");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_search_memory_non_latin: words of any script, NFC or NFD; no partial words")
  void test_search_memory_non_latin(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      String nfd = Normalizer.normalize("Meet at the Café", Normalizer.Form.NFD);
      memory.addSessionToMemory(session(APP, USER, "session-i18n",
          event("cyrillic", "user", 90_000_000, "Меня зовут Алексей"),
          event("korean", "user", 90_001_000, "제 이름은 민수입니다"),
          event("nfd", "user", 90_002_000, nfd),
          event("python", "user", 90_003_000, "I like to code in Python."),
          event("japanese", "user", 90_004_000, "私の名前は太郎です"))).blockingAwait();
      assertThat(texts(memory, APP, USER, "Алексей")).containsExactly("Меня зовут Алексей");
      assertThat(texts(memory, APP, USER, "민수입니다")).containsExactly("제 이름은 민수입니다");
      assertThat(texts(memory, APP, USER, "Café")).containsExactly(nfd);
      assertThat(texts(memory, APP, USER, Normalizer.normalize("café", Normalizer.Form.NFD))).containsExactly(nfd);
      assertThat(texts(memory, APP, USER, "thon")).isEmpty();
      // deviation: a run of letters without spaces is one word (SearchWords); ADK Python falls back to substrings
      assertThat(texts(memory, APP, USER, "太郎")).isEmpty();
      assertThat(texts(memory, APP, USER, "私の名前は太郎です")).containsExactly("私の名前は太郎です");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_search_memory_ranks_by_number_of_matching_words: the events holding most query words first")
  void test_search_memory_ranks_by_number_of_matching_words(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      memory.addSessionToMemory(session(APP, USER, "session-ranked",
          event("ranked-a", "user", 1_000, "The deploy is ready."),
          event("ranked-b", "user", 1_000, "Ready."),
          event("ranked-c", "user", 1_000, "The deploy status is ready."))).blockingAwait();
      assertThat(texts(memory, APP, USER, "deploy status ready"))
          .containsExactly("The deploy status is ready.", "The deploy is ready.", "Ready.");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_search_memory_returns_at_most_ten_memories: a word every event holds cannot return them all")
  void test_search_memory_returns_at_most_ten_memories(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      List<Event> events = new ArrayList<>(IntStream.range(0, 20)
          .mapToObj(i -> event("note-" + i, "user", 1_000 + i, "note " + i + " about work")).toList());
      events.add(event("backlog", "user", 500, "the backlog note about work"));
      memory.addSessionToMemory(session(APP, USER, "session-many", events.toArray(Event[]::new))).blockingAwait();
      List<String> texts = texts(memory, APP, USER, "work backlog note");
      assertThat(texts).hasSize(SessionStoreMemoryService.DEFAULT_LIMIT).first()
          .isEqualTo("the backlog note about work");
      // deviation: ties keep the store's order (newest first), not the order they were added in
      assertThat(texts.subList(1, texts.size())).containsExactlyElementsOf(
          IntStream.iterate(19, i -> i - 1).limit(9).mapToObj(i -> "note " + i + " about work").toList());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.adk.Backend#all")
  @DisplayName("test_ingested_memories_do_not_follow_caller_event_mutations: memory keeps what was added")
  void test_ingested_memories_do_not_follow_caller_event_mutations(Backend backend) throws Exception {
    try (Backend.Database database = backend.database()) {
      BaseMemoryService memory = database.memory();
      Event event = event("event", "user", 12_345_000, "I prefer jasmine tea.");
      memory.addSessionToMemory(session(APP, USER, "session", event)).blockingAwait();
      event.setAuthor("changed");
      event.setContent(Content.fromParts(Part.fromText("I prefer coffee.")));
      List<MemoryEntry> found = memory.searchMemory(APP, USER, "jasmine").blockingGet().memories();
      assertThat(found).hasSize(1);
      assertThat(found.get(0).author()).isEqualTo("user");
      assertThat(found.get(0).content().parts().orElseThrow().get(0).text()).hasValue("I prefer jasmine tea.");
    }
  }
}
