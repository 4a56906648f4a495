package dev.sessionstore.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.chat.ChatLog;
import dev.sessionstore.chat.HistoryPage;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * The behaviour of {@link SessionStoreChatMemoryRepository} on one kind of store; each backend's subclass supplies a
 * fresh, isolated store per test.
 */
abstract class ChatMemoryRepositoryContract {

  private SessionStore store;
  private SessionStoreChatMemoryRepository repository;

  /** A new store no other test sees. */
  abstract SessionStore openStore();

  /** Releases what {@link #openStore()} made, after the store is closed. */
  void cleanUp() {
  }

  @BeforeEach
  void open() {
    store = openStore();
    repository = SessionStoreChatMemoryRepository.builder(store).build();
  }

  @AfterEach
  void close() {
    store.close();
    cleanUp();
  }

  @Test
  @DisplayName("every message type comes back equal, with media, tool calls, responses and typed metadata")
  void everyMessageTypeRoundTrips() {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2, (byte) 0xff};
    Media bytes = Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(png).build();
    Media link = Media.builder().mimeType(MimeType.valueOf("image/jpeg;q=0.9")).data(URI.create("https://x.test/a.jpg"))
        .id("m-1").name("photo").build();
    Map<String, Object> metadata = new HashMap<>();
    metadata.put("string", "s");
    metadata.put("int", 42);
    metadata.put("long", 1L << 40);
    metadata.put("double", 0.1);
    metadata.put("nan", Double.NaN);
    metadata.put("float", 1.5f);
    metadata.put("bool", true);
    metadata.put("decimal", new BigDecimal("100.00"));
    metadata.put("bigint", new BigInteger("123456789012345678901234567890"));
    metadata.put("instant", Instant.parse("2026-01-02T03:04:05.123456789Z"));
    metadata.put("uuid", UUID.fromString("00000000-0000-0000-0000-000000000001"));
    metadata.put("enum", MessageType.TOOL);
    metadata.put("timeUnit", TimeUnit.SECONDS);
    metadata.put("nested", List.of(Map.of("k", 1L), "x"));
    metadata.put("none", null);
    UserMessage user = UserMessage.builder().text("look").media(bytes, link).metadata(metadata).build();
    AssistantMessage assistant = AssistantMessage.builder().content(null)
        .properties(Map.of("finishReason", "TOOL_CALLS"))
        .toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", "weather", "{\"city\":\"Paris\"}"),
            new AssistantMessage.ToolCall("call-2", "function", "time", "{}")))
        .build();
    ToolResponseMessage tool = ToolResponseMessage.builder()
        .responses(List.of(new ToolResponseMessage.ToolResponse("call-1", "weather", "sunny"),
            new ToolResponseMessage.ToolResponse("call-2", "time", "noon")))
        .metadata(Map.of("latencyMs", 12)).build();
    SystemMessage system = SystemMessage.builder().text("be brief").metadata(Map.of("version", 3)).build();
    AssistantMessage answer = new AssistantMessage("sunny at noon");
    List<Message> saved = List.of(system, user, assistant, tool, answer);

    repository.saveAll("c", saved);
    List<Message> read = SessionStoreChatMemoryRepository.builder(store).build().findByConversationId("c");

    assertThat(read).isEqualTo(saved);
    UserMessage readUser = (UserMessage) read.get(1);
    assertThat(readUser.getMetadata()).isEqualTo(user.getMetadata());
    assertThat(readUser.getMetadata().get("decimal")).isEqualTo(new BigDecimal("100.00"));
    assertThat(readUser.getMetadata().get("timeUnit")).isSameAs(TimeUnit.SECONDS);
    assertThat(readUser.getMetadata().get(MessageType.class.getSimpleName())).isNull();
    assertThat(readUser.getMetadata()).containsEntry("messageType", MessageType.USER);
    assertThat(readUser.getMedia()).hasSize(2);
    assertThat(readUser.getMedia().get(0).getDataAsByteArray()).isEqualTo(png);
    assertThat(readUser.getMedia().get(0).getName()).isEqualTo(bytes.getName());
    assertThat(readUser.getMedia().get(0).getMimeType()).isEqualTo(MimeTypeUtils.IMAGE_PNG);
    assertThat(readUser.getMedia().get(1).getData()).isEqualTo("https://x.test/a.jpg");
    assertThat(readUser.getMedia().get(1).getId()).isEqualTo("m-1");
    assertThat(readUser.getMedia().get(1).getName()).isEqualTo("photo");
    assertThat(readUser.getMedia().get(1).getMimeType()).isEqualTo(MimeType.valueOf("image/jpeg;q=0.9"));
    assertThat(((AssistantMessage) read.get(2)).getToolCalls()).isEqualTo(assistant.getToolCalls());
    assertThat(((ToolResponseMessage) read.get(3)).getResponses()).isEqualTo(tool.getResponses());
    assertThat(repository.history("c")).isEqualTo(saved);

    repository.saveAll("r", List.of(AssistantMessage.builder().content("x").properties(Map.of("record",
        new Point(1, 2))).build()));
    assertThat(repository.findByConversationId("r").get(0).getMetadata().get("record"))
        .isEqualTo(Map.of("x", 1, "y", 2));
  }

  /** A record in metadata: it comes back as a plain JSON map. */
  record Point(int x, int y) {
  }

  @Test
  @DisplayName("a turn appends only its new messages, and saving the same list again writes nothing")
  void turnsAppend() {
    List<Message> conversation = new ArrayList<>(List.of(new SystemMessage("sys"), new UserMessage("hi")));
    repository.saveAll("c", conversation);
    List<Message> read = repository.findByConversationId("c");
    List<Message> next = new ArrayList<>(read);
    next.add(new AssistantMessage("hello"));
    repository.saveAll("c", next);
    long lastSeq = store.events().lastSeq("c");
    repository.saveAll("c", repository.findByConversationId("c"));

    assertThat(store.events().lastSeq("c")).isEqualTo(lastSeq).isEqualTo(3);
    assertThat(repository.findByConversationId("c")).containsExactly(new SystemMessage("sys"), new UserMessage("hi"),
        new AssistantMessage("hello"));
  }

  @Test
  @DisplayName("window eviction keeps the full history in the log and the window Spring AI's own memory keeps")
  void evictionKeepsHistory() {
    ChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(4).build();
    ChatMemory reference = referenceMemory(4);
    List<Message> all = new ArrayList<>(List.of(new SystemMessage("sys")));
    memory.add("c", new SystemMessage("sys"));
    reference.add("c", new SystemMessage("sys"));
    for (int turn = 0; turn < 6; turn++) {
      for (Message message : List.of(new UserMessage("q" + turn), new AssistantMessage("a" + turn))) {
        memory.add("c", message);
        reference.add("c", message);
        all.add(message);
      }
    }

    assertThat(memory.get("c")).isEqualTo(reference.get("c")).startsWith(new SystemMessage("sys"))
        .endsWith(new UserMessage("q5"), new AssistantMessage("a5")).hasSizeLessThan(all.size());
    assertThat(repository.history("c")).isEqualTo(all);
    HistoryPage<Message> newest = repository.history("c", EventQuery.all().last(2));
    assertThat(newest.messages()).containsExactly(new UserMessage("q5"), new AssistantMessage("a5"));
    assertThat(newest.nextCursor()).isPresent();
  }

  /**
   * Spring AI's own window memory over its in-memory repository: what the window is after the same calls, whichever
   * Spring AI line runs (2.0 evicts to a user turn, 1.1 message by message).
   */
  private static ChatMemory referenceMemory(int maxMessages) {
    return MessageWindowChatMemory.builder().chatMemoryRepository(new InMemoryChatMemoryRepository())
        .maxMessages(maxMessages).build();
  }

  @Test
  @DisplayName("an edited list cuts the log where it first differs and appends the rest, in one step")
  void editCutsAndAppends() {
    repository.saveAll("c", List.of(new UserMessage("q1"), new AssistantMessage("a1"), new UserMessage("q2"),
        new AssistantMessage("a2")));
    List<Message> read = repository.findByConversationId("c");

    repository.saveAll("c", List.of(read.get(0), read.get(1), new UserMessage("q2 edited")));

    assertThat(repository.findByConversationId("c")).containsExactly(new UserMessage("q1"),
        new AssistantMessage("a1"), new UserMessage("q2 edited"));
    assertThat(repository.history("c")).containsExactly(new UserMessage("q1"), new AssistantMessage("a1"),
        new UserMessage("q2 edited"));
  }

  @Test
  @DisplayName("duplicate messages of equal content are told apart by identity")
  void duplicatesByIdentity() {
    repository.saveAll("c", List.of(new UserMessage("yes"), new AssistantMessage("ok")));
    List<Message> read = new ArrayList<>(repository.findByConversationId("c"));
    read.add(new UserMessage("yes"));
    read.add(new AssistantMessage("ok"));
    repository.saveAll("c", read);
    List<Message> again = repository.findByConversationId("c");

    repository.saveAll("c", again.subList(2, 4));

    assertThat(repository.findByConversationId("c")).containsExactly(new UserMessage("yes"),
        new AssistantMessage("ok"));
    assertThat(repository.history("c")).hasSize(4);
  }

  /**
   * Follows Spring AI's {@code InMemoryChatMemoryRepositoryTests#saveMessagesAndFindSingleMessageInConversation} and
   * {@code #subsequentSaveOverwritesPreviousVersion} with tool messages: Spring AI's in-memory, Neo4j and Redis
   * repositories return a list as saved, whatever it starts with, and so does this one, whether the list is saved
   * directly or built from a read (where it evicts the messages it drops).
   */
  @Test
  @DisplayName("findByConversationId returns what saveAll saved, tool responses included, directly or after a read")
  void returnsWhatWasSaved() {
    AssistantMessage call = AssistantMessage.builder().content("")
        .toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", "weather", "{}"))).build();
    ToolResponseMessage response = ToolResponseMessage.builder()
        .responses(List.of(new ToolResponseMessage.ToolResponse("call-1", "weather", "sunny"))).build();
    SystemMessage system = new SystemMessage("sys");
    UserMessage user = new UserMessage("weather?");
    AssistantMessage answer = new AssistantMessage("sunny");

    repository.saveAll("tool-only", List.of(response));
    repository.saveAll("direct", List.of(system, response, answer));
    repository.saveAll("after-read", List.of(system, user, response, answer));
    List<Message> read = repository.findByConversationId("after-read");
    repository.saveAll("after-read", List.of(read.get(0), read.get(2), read.get(3)));
    repository.saveAll("call-evicted", List.of(system, call, response, user));
    read = repository.findByConversationId("call-evicted");
    repository.saveAll("call-evicted", List.of(read.get(0), read.get(2), read.get(3), answer));
    repository.saveAll("leading", List.of(user, call, response, answer));
    read = repository.findByConversationId("leading");
    repository.saveAll("leading", List.of(read.get(2), read.get(3), new UserMessage("thanks")));

    SessionStoreChatMemoryRepository other = SessionStoreChatMemoryRepository.builder(store).build();
    for (SessionStoreChatMemoryRepository each : List.of(repository, other)) {
      assertThat(each.findByConversationId("tool-only")).containsExactly(response);
      assertThat(each.findByConversationId("direct")).containsExactly(system, response, answer);
      assertThat(each.findByConversationId("after-read")).containsExactly(system, response, answer);
      assertThat(each.findByConversationId("call-evicted")).containsExactly(system, response, user, answer);
      assertThat(each.findByConversationId("leading")).containsExactly(response, answer, new UserMessage("thanks"));
    }
    assertThat(repository.history("call-evicted")).containsExactly(system, call, response, user, answer);
    assertThat(repository.history("leading")).containsExactly(user, call, response, answer,
        new UserMessage("thanks"));
  }

  /**
   * Follows Spring AI's {@code MessageWindowChatMemoryTests} (eviction beyond the limit, system messages kept) with
   * tool-calling turns: after every {@code add}, {@code MessageWindowChatMemory} over this repository holds the same
   * window as over Spring AI's {@link InMemoryChatMemoryRepository}, whichever Spring AI line runs.
   */
  @Test
  @DisplayName("MessageWindowChatMemory keeps the same window over this repository as over Spring AI's in-memory one")
  void sameWindowAsSpringAisOwnRepository() {
    for (int maxMessages : new int[] {2, 3, 4, 5}) {
      String conversationId = "window-" + maxMessages;
      ChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository)
          .maxMessages(maxMessages).build();
      ChatMemory reference = referenceMemory(maxMessages);
      List<Message> script = new ArrayList<>(List.of(new SystemMessage("sys")));
      for (int turn = 0; turn < 3; turn++) {
        String callId = "call-" + turn;
        script.add(new UserMessage("q" + turn));
        script.add(AssistantMessage.builder().content("")
            .toolCalls(List.of(new AssistantMessage.ToolCall(callId, "function", "weather", "{}"))).build());
        script.add(ToolResponseMessage.builder()
            .responses(List.of(new ToolResponseMessage.ToolResponse(callId, "weather", "sunny " + turn))).build());
        script.add(new AssistantMessage("a" + turn));
      }
      Set<Message> everInAWindow = new HashSet<>();
      for (int step = 0; step < script.size(); step++) {
        memory.add(conversationId, script.get(step));
        reference.add(conversationId, script.get(step));
        assertThat(memory.get(conversationId)).as("max %d, after message %d", maxMessages, step)
            .isEqualTo(reference.get(conversationId));
        everInAWindow.addAll(reference.get(conversationId));
      }
      // eviction never cuts the history, also when the window keeps only its system message
      assertThat(repository.history(conversationId)).as("history, max %d", maxMessages)
          .isEqualTo(script.stream().filter(everInAWindow::contains).toList());
    }
  }

  /**
   * Follows Spring AI's {@code InMemoryChatMemoryRepositoryTests#nullConversationIdNotAllowed},
   * {@code #emptyConversationIdNotAllowed}, {@code #nullMessagesNotAllowed} and
   * {@code #messagesWithNullElementsNotAllowed}: the same exception type and message as every Spring AI repository
   * (1.1 and 2.0), checked in the same order (the id first, then the list, then its elements).
   */
  @Test
  @DisplayName("argument errors are Spring AI's: IllegalArgumentException with the framework's wording and order")
  void argumentErrorsUseSpringAisWording() {
    List<Message> withNull = new ArrayList<>();
    withNull.add(null);
    for (String id : new String[] {null, "", "  "}) {
      assertThatThrownBy(() -> repository.saveAll(id, List.of(new UserMessage("Hello"))))
          .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage("conversationId cannot be null or empty");
      assertThatThrownBy(() -> repository.saveAll(id, null))
          .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage("conversationId cannot be null or empty");
      assertThatThrownBy(() -> repository.findByConversationId(id))
          .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage("conversationId cannot be null or empty");
      assertThatThrownBy(() -> repository.deleteByConversationId(id))
          .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage("conversationId cannot be null or empty");
      assertThatThrownBy(() -> repository.history(id))
          .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage("conversationId cannot be null or empty");
    }
    assertThatThrownBy(() -> repository.saveAll("c", null))
        .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage("messages cannot be null");
    assertThatThrownBy(() -> repository.saveAll("c", withNull))
        .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage("messages cannot contain null elements");
    assertThat(repository.findConversationIds()).isEmpty();
  }

  @Test
  @DisplayName("findConversationIds lists only the conversations repositories of this owner wrote; delete removes all")
  void listingAndDeleting() {
    store.sessions().save(SessionWrite.of("someone-else"));
    SessionStoreChatMemoryRepository other = SessionStoreChatMemoryRepository.builder(store).owner("other").build();
    for (int i = 0; i < 3; i++) {
      repository.saveAll("c" + i, List.of(new UserMessage("m" + i)));
    }
    other.saveAll("o", List.of(new UserMessage("x")));

    assertThat(repository.findConversationIds()).containsExactlyInAnyOrder("c0", "c1", "c2");
    assertThat(other.findConversationIds()).containsExactly("o");
    assertThat(store.sessions().find("c0").orElseThrow().metadata())
        .containsEntry(ChatLog.DEFAULT_OWNER_KEY, SessionStoreChatMemoryRepository.DEFAULT_OWNER);

    repository.deleteByConversationId("c1");
    repository.deleteByConversationId("unknown");

    assertThat(repository.findConversationIds()).containsExactlyInAnyOrder("c0", "c2");
    assertThat(store.sessions().find("c1")).isEmpty();
    assertThat(store.events().lastSeq("c1")).isZero();
    assertThat(repository.findByConversationId("c1")).isEmpty();
  }

  @Test
  @DisplayName("16 threads adding through one MessageWindowChatMemory store every message once, each in its order")
  void concurrentSaveAllLosesNothing() throws Exception {
    for (int round = 0; round < concurrentRounds(); round++) {
      concurrentRound("shared-" + round);
    }
  }

  private void concurrentRound(String conversationId) throws Exception {
    ChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(10).build();
    int threads = 16;
    int turns = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(pool.submit(() -> {
        start.await();
        for (int turn = 0; turn < turns; turn++) {
          memory.add(conversationId, new UserMessage("t" + thread + "-" + turn));
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> future : done) {
      future.get(120, TimeUnit.SECONDS);
    }
    pool.shutdown();

    List<String> history = repository.history(conversationId).stream().map(Message::getText).toList();
    assertThat(history).as("%s: every message stored exactly once", conversationId).hasSize(threads * turns)
        .doesNotHaveDuplicates();
    for (int t = 0; t < threads; t++) {
      List<String> own = new ArrayList<>();
      for (String text : history) {
        if (text.startsWith("t" + t + "-")) {
          own.add(text);
        }
      }
      List<String> expected = new ArrayList<>();
      for (int turn = 0; turn < turns; turn++) {
        expected.add("t" + t + "-" + turn);
      }
      assertThat(own).as("%s: thread %d's messages in its order", conversationId, t).isEqualTo(expected);
    }
    List<String> window = memory.get(conversationId).stream().map(Message::getText).toList();
    assertThat(window).as("%s: the window is the newest part of the history", conversationId)
        .isEqualTo(history.subList(history.size() - window.size(), history.size())).hasSizeGreaterThanOrEqualTo(10);

    memory.add(conversationId, new UserMessage("last"));

    List<String> after = repository.history(conversationId).stream().map(Message::getText).toList();
    assertThat(memory.get(conversationId).stream().map(Message::getText).toList())
        .isEqualTo(after.subList(after.size() - 10, after.size()));
  }

  /** How many times the 16-thread test runs, each on a conversation of its own. */
  abstract int concurrentRounds();

  @Test
  @DisplayName("a writer that read before another one's commit keeps the other's messages")
  void staleWriterKeepsConcurrentMessages() {
    repository.saveAll("c", List.of(new UserMessage("q1")));
    List<Message> seenByA = repository.findByConversationId("c");
    List<Message> seenByB = repository.findByConversationId("c");
    List<Message> b = new ArrayList<>(seenByB);
    b.add(new AssistantMessage("from b"));
    repository.saveAll("c", b);
    List<Message> a = new ArrayList<>(seenByA);
    a.add(new AssistantMessage("from a"));

    repository.saveAll("c", a);

    assertThat(repository.findByConversationId("c")).containsExactly(new UserMessage("q1"),
        new AssistantMessage("from b"), new AssistantMessage("from a"));
    Set<String> texts = Set.copyOf(repository.history("c").stream().map(Message::getText).toList());
    assertThat(texts).containsExactlyInAnyOrder("q1", "from b", "from a");
  }

  @Test
  @DisplayName("saving an empty list empties the window, keeping the history evicted before it")
  void emptyList() {
    ChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(2).build();
    ChatMemory reference = referenceMemory(2);
    for (ChatMemory each : List.of(memory, reference)) {
      each.add("c", List.of(new UserMessage("1"), new AssistantMessage("2")));
      each.add("c", new UserMessage("3"));
    }
    List<Message> evicted = new ArrayList<>(List.of(new UserMessage("1"), new AssistantMessage("2"),
        new UserMessage("3")));
    evicted.removeAll(reference.get("c"));

    repository.saveAll("c", Collections.emptyList());

    assertThat(repository.findByConversationId("c")).isEmpty();
    assertThat(repository.history("c")).isEqualTo(evicted).isNotEmpty();
  }
}
