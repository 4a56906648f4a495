package dev.sessionstore.springai.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.ai.session.EventFilter;
import org.springframework.ai.session.Session;
import org.springframework.ai.session.SessionEvent;
import org.springframework.ai.session.SessionRepository;
import org.springframework.util.MimeTypeUtils;

/**
 * The contract of spring-ai-session's {@link SessionRepository}, from its javadoc and spring-ai-session's own tests
 * (in-memory and JDBC), plus what a durable, concurrent backend must add: idempotent appends per session, a
 * compare-and-set compaction with one winner, and no history lost to compaction. A backend extends this class,
 * supplies a fresh, isolated repository per test in {@link #newRepository()} and, where it offers no keyword search,
 * answers false in {@link #searchesKeywords()} (then a keyword filter must fail clearly, never scan silently).
 *
 * <p>If a test fails, check its display name: each states one rule. A repository that deviates on purpose overrides
 * the test with {@code @Disabled} naming why, as {@code InMemorySessionRepositoryContractTest} does.
 */
public abstract class SessionRepositoryContract {

  /** A start time in the past, to the millisecond, so every backend keeps it exactly. */
  protected static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MILLIS).minus(Duration.ofHours(1));

  /** The repository under test, fresh per test. */
  protected SessionRepository repository;

  /** A fresh repository over an empty backend. */
  protected abstract SessionRepository newRepository();

  /** Releases what {@link #newRepository()} opened. */
  protected void cleanUp() {
  }

  /** Whether {@link EventFilter#keyword()} is answered (else it must fail with an exception, not scan). */
  protected boolean searchesKeywords() {
    return true;
  }

  @BeforeEach
  void open() {
    repository = newRepository();
  }

  @AfterEach
  void close() {
    cleanUp();
  }

  /** Saves a session of {@code userId} with {@code id}. */
  protected Session session(String id, String userId) {
    return repository.save(Session.builder().id(id).userId(userId).createdAt(T0).expiresAt(T0.plus(Duration.ofDays(1)))
        .build());
  }

  /** An event of {@code sessionId} with a message of {@code text}, at {@code T0} plus {@code second} seconds. */
  protected static SessionEvent event(String sessionId, String id, Message message, int second) {
    return SessionEvent.builder().id(id).sessionId(sessionId).message(message).timestamp(T0.plusSeconds(second))
        .build();
  }

  private List<SessionEvent> conversation(String sessionId, int turns) {
    List<SessionEvent> events = new ArrayList<>();
    for (int i = 0; i < turns; i++) {
      events.add(event(sessionId, "u" + i, new UserMessage("question " + i), 2 * i));
      events.add(event(sessionId, "a" + i, new AssistantMessage("answer " + i), 2 * i + 1));
    }
    events.forEach(repository::appendEvent);
    return events;
  }

  private static List<String> ids(List<SessionEvent> events) {
    return events.stream().map(SessionEvent::getId).toList();
  }

  // Sessions

  @Test
  @DisplayName("a saved session comes back with its user, times and metadata")
  void savedSessionRoundTrips() {
    Session saved = repository.save(Session.builder().id("s").userId("u").createdAt(T0)
        .expiresAt(T0.plus(Duration.ofDays(2))).metadata(Map.of("model", "m", "temperature", 0.5, "turns", 3)).build());
    Session read = repository.findById("s");
    assertThat(read).isNotNull();
    assertThat(read.id()).isEqualTo(saved.id());
    assertThat(read.userId()).isEqualTo("u");
    assertThat(read.createdAt()).isEqualTo(T0);
    assertThat(read.expiresAt()).isEqualTo(T0.plus(Duration.ofDays(2)));
    assertThat(read.metadata()).isEqualTo(saved.metadata());
  }

  @Test
  @DisplayName("an unknown session is null")
  void unknownSessionIsNull() {
    assertThat(repository.findById("nobody")).isNull();
  }

  @Test
  @DisplayName("saving a session again updates it and keeps its events and version")
  void saveAgainKeepsEvents() {
    session("s", "u");
    conversation("s", 2);
    long version = repository.getEventVersion("s");
    repository.save(Session.builder().id("s").userId("u").createdAt(T0).metadata(Map.of("k", "v")).build());
    assertThat(repository.findById("s").metadata()).containsEntry("k", "v");
    assertThat(repository.findEvents("s", EventFilter.all())).hasSize(4);
    assertThat(repository.getEventVersion("s")).isEqualTo(version);
  }

  @Test
  @DisplayName("sessions by user are the user's and no one else's")
  void sessionsByUser() {
    session("a1", "alice");
    session("a2", "alice");
    session("b1", "bob");
    assertThat(repository.findByUserId("alice")).extracting(Session::id).containsExactlyInAnyOrder("a1", "a2");
    assertThat(repository.findByUserId("carol")).isEmpty();
  }

  @Test
  @DisplayName("deleting a session removes it with its events; deleting again is fine")
  void deleteCascades() {
    session("s", "u");
    conversation("s", 1);
    repository.delete("s");
    assertThat(repository.findById("s")).isNull();
    assertThat(repository.findEvents("s", EventFilter.all())).isEmpty();
    assertThat(repository.getEventVersion("s")).isZero();
    repository.delete("s");
  }

  @Test
  @DisplayName("expired sessions are those whose expiry is before the instant; no expiry never expires")
  void expiredSessions() {
    repository.save(Session.builder().id("old").userId("u").createdAt(T0).expiresAt(T0.plusSeconds(10)).build());
    repository.save(Session.builder().id("new").userId("u").createdAt(T0).expiresAt(T0.plusSeconds(100)).build());
    repository.save(Session.builder().id("never").userId("u").createdAt(T0).expiresAt(null).build());
    assertThat(repository.findExpiredSessionIds(T0.plusSeconds(50))).containsExactly("old");
    assertThat(repository.findExpiredSessionIds(T0.plusSeconds(10))).isEmpty();
  }

  @Test
  @DisplayName("saving a session again replaces its expiry")
  void expiryChangesWithTheSession() {
    repository.save(Session.builder().id("s").userId("u").createdAt(T0).expiresAt(T0.plusSeconds(10)).build());
    repository.save(Session.builder().id("s").userId("u").createdAt(T0).expiresAt(T0.plusSeconds(100)).build());
    assertThat(repository.findExpiredSessionIds(T0.plusSeconds(50))).isEmpty();
    assertThat(repository.findExpiredSessionIds(T0.plusSeconds(101))).containsExactly("s");
    assertThat(repository.findById("s").expiresAt()).isEqualTo(T0.plusSeconds(100));
  }

  @Test
  @DisplayName("saving a session again without an expiry clears it: it never expires")
  void savingWithoutAnExpiryClearsIt() {
    repository.save(Session.builder().id("s").userId("u").createdAt(T0).expiresAt(T0.plusSeconds(10)).build());
    repository.save(Session.builder().id("s").userId("u").createdAt(T0).expiresAt(null).build());
    assertThat(repository.findExpiredSessionIds(T0.plusSeconds(1_000))).isEmpty();
    assertThat(repository.findById("s").expiresAt()).isNull();
  }

  // Appends

  @Test
  @DisplayName("appending to an unknown session fails with IllegalArgumentException")
  void appendToUnknownSessionFails() {
    assertThatThrownBy(() -> repository.appendEvent(event("nobody", "e", new UserMessage("hi"), 0)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("events come back in the order appended, and the version counts the appends from 0")
  void appendsInOrder() {
    session("s", "u");
    assertThat(repository.getEventVersion("s")).isZero();
    List<SessionEvent> appended = conversation("s", 3);
    assertThat(ids(repository.findEvents("s", EventFilter.all()))).isEqualTo(ids(appended));
    assertThat(repository.getEventVersion("s")).isEqualTo(6);
    assertThat(repository.getEventVersion("nobody")).isZero();
  }

  @Test
  @DisplayName("appending the same event again is a replay: nothing written, the version unchanged")
  void replayWritesNothing() {
    session("s", "u");
    SessionEvent event = event("s", "e1", new UserMessage("yes"), 0);
    repository.appendEvent(event);
    long version = repository.getEventVersion("s");
    repository.appendEvent(event);
    assertThat(repository.findEvents("s", EventFilter.all())).hasSize(1);
    assertThat(repository.getEventVersion("s")).isEqualTo(version);
  }

  @Test
  @DisplayName("other content under a stored event id is an error, not a silent drop")
  void otherContentUnderStoredIdFails() {
    session("s", "u");
    repository.appendEvent(event("s", "e1", new UserMessage("yes"), 0));
    assertThatThrownBy(() -> repository.appendEvent(event("s", "e1", new UserMessage("no"), 0)))
        .isInstanceOf(RuntimeException.class);
    assertThat(repository.findEvents("s", EventFilter.all())).extracting(e -> e.getMessage().getText())
        .containsExactly("yes");
  }

  @Test
  @DisplayName("the same event id in another session is another event")
  void sameIdInAnotherSession() {
    session("s1", "u");
    session("s2", "u");
    repository.appendEvent(event("s1", "e1", new UserMessage("one"), 0));
    repository.appendEvent(event("s2", "e1", new UserMessage("two"), 0));
    assertThat(repository.findEvents("s2", EventFilter.all())).extracting(e -> e.getMessage().getText())
        .containsExactly("two");
  }

  @Test
  @DisplayName("the same words twice in a session under two ids are two events")
  void sameWordsTwice() {
    session("s", "u");
    repository.appendEvent(event("s", "e1", new UserMessage("yes"), 0));
    repository.appendEvent(event("s", "e2", new UserMessage("yes"), 0));
    assertThat(repository.findEvents("s", EventFilter.all())).hasSize(2);
  }

  @Test
  @DisplayName("16 threads appending to one session lose nothing; the version is the count")
  void concurrentAppendsLoseNothing() throws Exception {
    session("s", "u");
    int threads = 16;
    int each = 10;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(pool.submit((Callable<Void>) () -> {
        start.await();
        for (int i = 0; i < each; i++) {
          repository.appendEvent(event("s", thread + "-" + i, new UserMessage("m " + thread + " " + i), i));
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> future : done) {
      future.get(2, TimeUnit.MINUTES);
    }
    pool.shutdown();
    assertThat(repository.findEvents("s", EventFilter.all())).hasSize(threads * each)
        .extracting(SessionEvent::getId).doesNotHaveDuplicates();
    assertThat(repository.getEventVersion("s")).isEqualTo(threads * each);
  }

  // Messages

  @Test
  @DisplayName("every message type comes back equal, with media, tool calls, responses, metadata and branch")
  void everyMessageTypeRoundTrips() {
    session("s", "u");
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2, (byte) 0xff};
    Media bytes = Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(png).build();
    Media link = Media.builder().mimeType(MimeTypeUtils.IMAGE_JPEG).data(URI.create("https://x.test/a.jpg"))
        .id("m-1").name("photo").build();
    Map<String, Object> metadata = new HashMap<>();
    metadata.put("string", "s");
    metadata.put("int", 42);
    metadata.put("decimal", new BigDecimal("100.00"));
    metadata.put("enum", MessageType.TOOL);
    UserMessage user = UserMessage.builder().text("look").media(bytes, link).metadata(metadata).build();
    AssistantMessage calls = AssistantMessage.builder().content(null).properties(Map.of("finishReason", "TOOL_CALLS"))
        .toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", "weather", "{\"city\":\"Paris\"}")))
        .build();
    ToolResponseMessage tool = ToolResponseMessage.builder()
        .responses(List.of(new ToolResponseMessage.ToolResponse("call-1", "weather", "sunny")))
        .metadata(Map.of("latencyMs", 12)).build();
    SystemMessage system = SystemMessage.builder().text("be brief").metadata(Map.of("version", 3)).build();
    List<Message> messages = List.of(system, user, calls, tool, new AssistantMessage("sunny"));
    for (int i = 0; i < messages.size(); i++) {
      repository.appendEvent(SessionEvent.builder().id("e" + i).sessionId("s").message(messages.get(i))
          .timestamp(T0.plusSeconds(i)).branch(i == 2 ? "orch.weather" : null).metadata("turn", i).build());
    }
    List<SessionEvent> read = repository.findEvents("s", EventFilter.all());
    assertThat(read).extracting(SessionEvent::getMessage).isEqualTo(messages);
    assertThat(((UserMessage) read.get(1).getMessage()).getMedia().get(0).getDataAsByteArray()).isEqualTo(png);
    assertThat(((UserMessage) read.get(1).getMessage()).getMetadata()).isEqualTo(user.getMetadata());
    assertThat(read.get(2).getBranch()).isEqualTo("orch.weather");
    assertThat(read.get(2).hasToolCalls()).isTrue();
    assertThat(read.get(3).getMetadata()).containsEntry("turn", 3);
    assertThat(read).extracting(SessionEvent::getTimestamp)
        .containsExactly(T0, T0.plusSeconds(1), T0.plusSeconds(2), T0.plusSeconds(3), T0.plusSeconds(4));
  }

  // Filters

  @Test
  @DisplayName("last N is the N newest matching events, oldest first")
  void lastN() {
    session("s", "u");
    List<SessionEvent> appended = conversation("s", 5);
    assertThat(ids(repository.findEvents("s", EventFilter.lastN(3)))).isEqualTo(ids(appended.subList(7, 10)));
    assertThat(repository.findEvents("s", EventFilter.lastN(50))).hasSize(10);
  }

  @Test
  @DisplayName("synthetic events are left out by realOnly")
  void realOnly() {
    session("s", "u");
    repository.appendEvent(event("s", "u0", new UserMessage("hi"), 0));
    repository.appendEvent(SessionEvent.builder().id("sum").sessionId("s").message(new AssistantMessage("summary"))
        .timestamp(T0.plusSeconds(1)).metadata(SessionEvent.METADATA_SYNTHETIC, true).build());
    assertThat(ids(repository.findEvents("s", EventFilter.realOnly()))).containsExactly("u0");
    assertThat(repository.findEvents("s", EventFilter.all()).get(1).isSynthetic()).isTrue();
  }

  @Test
  @DisplayName("message types narrow the events, also with last N")
  void messageTypes() {
    session("s", "u");
    conversation("s", 3);
    EventFilter users = EventFilter.builder().messageTypes(Set.of(MessageType.USER)).build();
    assertThat(ids(repository.findEvents("s", users))).containsExactly("u0", "u1", "u2");
    EventFilter lastUser = EventFilter.builder().messageTypes(Set.of(MessageType.USER)).lastN(1).build();
    assertThat(ids(repository.findEvents("s", lastUser))).containsExactly("u2");
  }

  @Test
  @DisplayName("from and to are inclusive time bounds")
  void timeRange() {
    session("s", "u");
    conversation("s", 3);
    EventFilter range = EventFilter.builder().from(T0.plusSeconds(1)).to(T0.plusSeconds(3)).build();
    assertThat(ids(repository.findEvents("s", range))).containsExactly("a0", "u1", "a1");
  }

  @Test
  @DisplayName("pages slice the matching events oldest first; past the end is empty")
  void pages() {
    session("s", "u");
    conversation("s", 3);
    EventFilter second = EventFilter.builder().page(1).pageSize(4).build();
    assertThat(ids(repository.findEvents("s", second))).containsExactly("u2", "a2");
    assertThat(repository.findEvents("s", EventFilter.builder().page(5).pageSize(4).build())).isEmpty();
  }

  @Test
  @DisplayName("an unknown session has no events")
  void unknownSessionHasNoEvents() {
    assertThat(repository.findEvents("nobody", EventFilter.all())).isEmpty();
    assertThat(repository.findEvents("nobody", EventFilter.lastN(3))).isEmpty();
  }

  @Test
  @DisplayName("a branch sees root events and its ancestors' events, never a peer's")
  void branches() {
    session("s", "u");
    String[] branches = {null, "orch", "orch.researcher", "orch.writer"};
    for (int i = 0; i < branches.length; i++) {
      repository.appendEvent(SessionEvent.builder().id("e" + i).sessionId("s").message(new UserMessage("m" + i))
          .timestamp(T0.plusSeconds(i)).branch(branches[i]).build());
    }
    assertThat(ids(repository.findEvents("s", EventFilter.forBranch("orch.researcher"))))
        .containsExactly("e0", "e1", "e2");
    assertThat(ids(repository.findEvents("s", EventFilter.forBranch("orch")))).containsExactly("e0", "e1");
  }

  @Test
  @DisplayName("a keyword finds the events whose text holds it, case-insensitively; or the repository refuses it")
  void keyword() {
    session("s", "u");
    repository.appendEvent(event("s", "e1", new UserMessage("The Weather in Paris"), 0));
    repository.appendEvent(event("s", "e2", new AssistantMessage("sunny"), 1));
    if (searchesKeywords()) {
      assertThat(ids(repository.findEvents("s", EventFilter.keywordSearch("paris")))).containsExactly("e1");
      assertThat(ids(repository.findEvents("s", EventFilter.keywordSearch("WEATHER in")))).containsExactly("e1");
      assertThat(repository.findEvents("s", EventFilter.keywordSearch("london"))).isEmpty();
    } else {
      assertThatThrownBy(() -> repository.findEvents("s", EventFilter.keywordSearch("paris")))
          .isInstanceOf(RuntimeException.class).hasMessageContaining("SEARCH");
    }
  }

  @Test
  @DisplayName("a keyword finds archived events too, unless archived are excluded, in order, with last N and pages")
  void keywordWithTheOtherFields() {
    session("s", "u");
    conversation("s", 4);
    if (!searchesKeywords()) {
      assertThatThrownBy(() -> repository.findEvents("s", EventFilter.keywordSearch("question")))
          .isInstanceOf(RuntimeException.class);
      return;
    }
    compact("s", "sum1", 2, repository.getEventVersion("s"));
    repository.appendEvent(event("s", "u9", new UserMessage("question 9"), 20));
    EventFilter questions = EventFilter.builder().keyword("question").build();
    assertThat(ids(repository.findEvents("s", questions))).containsExactly("u0", "u1", "u2", "u3", "u9");
    assertThat(repository.findEvents("s", questions)).extracting(SessionEvent::isArchived)
        .containsExactly(true, true, true, false, false);
    EventFilter active = EventFilter.builder().keyword("question").excludeArchived(true).build();
    assertThat(ids(repository.findEvents("s", active))).containsExactly("u3", "u9");
    assertThat(ids(repository.findEvents("s", EventFilter.builder().keyword("question").lastN(2).build())))
        .containsExactly("u3", "u9");
    assertThat(ids(repository.findEvents("s", EventFilter.keywordSearch("question", 1, 2))))
        .containsExactly("u2", "u3");
    assertThat(repository.findEvents("other", questions)).isEmpty();
  }

  // Compaction

  /** Compacts {@code sessionId}: archives all but the last {@code keep} events, adds a synthetic summary. */
  private boolean compact(String sessionId, String summaryId, int keep, long version) {
    List<SessionEvent> active = repository.findEvents(sessionId, EventFilter.active());
    List<SessionEvent> archived = active.subList(0, active.size() - keep);
    List<SessionEvent> retained = new ArrayList<>();
    retained.add(SessionEvent.builder().id(summaryId).sessionId(sessionId).message(new AssistantMessage("summary"))
        .timestamp(T0.plusSeconds(1000)).metadata(SessionEvent.METADATA_SYNTHETIC, true).build());
    retained.addAll(active.subList(active.size() - keep, active.size()));
    return repository.compactEvents(sessionId, archived, retained, version);
  }

  @Test
  @DisplayName("a compaction at the current version wins, moves the version, and leaves summary then kept events")
  void compactionAtCurrentVersion() {
    session("s", "u");
    conversation("s", 3);
    long version = repository.getEventVersion("s");
    assertThat(compact("s", "sum1", 2, version)).isTrue();
    assertThat(repository.getEventVersion("s")).isGreaterThan(version);
    assertThat(ids(repository.findEvents("s", EventFilter.active()))).containsExactly("sum1", "u2", "a2");
    assertThat(ids(repository.findEvents("s", EventFilter.lastN(2)))).containsExactly("u2", "a2");
  }

  @Test
  @DisplayName("a compaction at a stale version changes nothing and answers false")
  void compactionAtStaleVersion() {
    session("s", "u");
    conversation("s", 3);
    long stale = repository.getEventVersion("s");
    repository.appendEvent(event("s", "late", new UserMessage("late"), 100));
    assertThat(compact("s", "sum1", 2, stale)).isFalse();
    assertThat(repository.findEvents("s", EventFilter.active())).hasSize(7);
    assertThat(repository.findEvents("s", EventFilter.all())).noneMatch(SessionEvent::isArchived);
  }

  @Test
  @DisplayName("archived events stay readable with excludeArchived false, first and marked archived")
  void archivedStayReadable() {
    session("s", "u");
    conversation("s", 3);
    compact("s", "sum1", 2, repository.getEventVersion("s"));
    List<SessionEvent> all = repository.findEvents("s", EventFilter.all());
    assertThat(ids(all)).containsExactly("u0", "a0", "u1", "a1", "sum1", "u2", "a2");
    assertThat(all).extracting(SessionEvent::isArchived).containsExactly(true, true, true, true, false, false, false);
  }

  @Test
  @DisplayName("events appended after a compaction follow its window")
  void appendAfterCompaction() {
    session("s", "u");
    conversation("s", 2);
    compact("s", "sum1", 2, repository.getEventVersion("s"));
    repository.appendEvent(event("s", "u9", new UserMessage("again"), 50));
    assertThat(ids(repository.findEvents("s", EventFilter.active()))).containsExactly("sum1", "u1", "a1", "u9");
    assertThat(ids(repository.findEvents("s", EventFilter.lastN(3)))).containsExactly("u1", "a1", "u9");
    assertThat(ids(repository.findEvents("s", EventFilter.all()))).containsExactly("u0", "a0", "sum1", "u1", "a1",
        "u9");
  }

  @Test
  @DisplayName("a second compaction keeps the events the first archived")
  void previouslyArchivedKept() {
    session("s", "u");
    conversation("s", 3);
    compact("s", "sum1", 4, repository.getEventVersion("s"));
    conversation2("s");
    compact("s", "sum2", 2, repository.getEventVersion("s"));
    List<SessionEvent> all = repository.findEvents("s", EventFilter.all());
    assertThat(ids(all)).startsWith("u0", "a0").endsWith("sum2", "u4", "a4");
    assertThat(ids(repository.findEvents("s", EventFilter.active()))).containsExactly("sum2", "u4", "a4");
  }

  @Test
  @DisplayName("compaction never deletes history: every event ever appended stays readable, a superseded summary too")
  void compactionNeverDeletesHistory() {
    session("s", "u");
    conversation("s", 3);
    compact("s", "sum1", 2, repository.getEventVersion("s"));
    conversation2("s");
    long version = repository.getEventVersion("s");
    List<SessionEvent> active = repository.findEvents("s", EventFilter.active());
    List<SessionEvent> archived = active.stream().filter(event -> !event.isSynthetic())
        .filter(event -> !List.of("u4", "a4").contains(event.getId())).toList();
    List<SessionEvent> retained = new ArrayList<>();
    retained.add(SessionEvent.builder().id("sum2").sessionId("s").message(new AssistantMessage("summary 2"))
        .timestamp(T0.plusSeconds(2000)).metadata(SessionEvent.METADATA_SYNTHETIC, true).build());
    retained.addAll(active.subList(active.size() - 2, active.size()));
    assertThat(repository.compactEvents("s", archived, retained, version)).isTrue();
    assertThat(ids(repository.findEvents("s", EventFilter.active()))).containsExactly("sum2", "u4", "a4");
    assertThat(ids(repository.findEvents("s", EventFilter.all()))).contains("u0", "a0", "u1", "a1", "sum1", "u2",
        "a2", "u3", "a3", "sum2", "u4", "a4");
  }

  @Test
  @DisplayName("of two compactions at one version exactly one wins")
  void oneCompactionWins() throws Exception {
    session("s", "u");
    conversation("s", 3);
    long version = repository.getEventVersion("s");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    CountDownLatch start = new CountDownLatch(1);
    Future<Boolean> first = pool.submit(() -> {
      start.await();
      return compact("s", "sumA", 2, version);
    });
    Future<Boolean> second = pool.submit(() -> {
      start.await();
      return compact("s", "sumB", 2, version);
    });
    start.countDown();
    boolean a = first.get(1, TimeUnit.MINUTES);
    boolean b = second.get(1, TimeUnit.MINUTES);
    pool.shutdown();
    assertThat(a ^ b).as("exactly one of %s, %s", a, b).isTrue();
    assertThat(ids(repository.findEvents("s", EventFilter.active()))).containsExactly(a ? "sumA" : "sumB", "u2", "a2");
  }

  @Test
  @DisplayName("compacting an unknown session fails with IllegalArgumentException")
  void compactUnknownSessionFails() {
    assertThatThrownBy(() -> repository.compactEvents("nobody", List.of(), List.of(), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private void conversation2(String sessionId) {
    repository.appendEvent(event(sessionId, "u3", new UserMessage("question 3"), 6));
    repository.appendEvent(event(sessionId, "a3", new AssistantMessage("answer 3"), 7));
    repository.appendEvent(event(sessionId, "u4", new UserMessage("question 4"), 8));
    repository.appendEvent(event(sessionId, "a4", new AssistantMessage("answer 4"), 9));
  }
}
