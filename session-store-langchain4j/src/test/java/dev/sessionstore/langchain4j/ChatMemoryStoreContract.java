package dev.sessionstore.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.AudioContent;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.CustomMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.PdfFileContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.message.VideoContent;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.memory.chat.TokenWindowChatMemory;
import dev.langchain4j.model.TokenCountEstimator;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.chat.ChatLog;
import dev.sessionstore.chat.HistoryPage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The behaviour of {@link SessionStoreChatMemoryStore} on one kind of store: the scenarios of LangChain4j's own
 * store tests (update replaces, several ids, delete, every message type, empty memory), the chat memories over it,
 * the same windows as over LangChain4j's own store, async calls and concurrent writers. Each backend's subclass supplies a fresh, isolated store per
 * test.
 */
abstract class ChatMemoryStoreContract {

  SessionStore store;
  SessionStoreChatMemoryStore memoryStore;

  /** A new store no other test sees. */
  abstract SessionStore openStore();

  /** A second store instance over the data of {@link #openStore()}'s, as another process would open it. */
  abstract SessionStore reopenStore();

  /** Closes a store {@link #reopenStore()} returned. */
  void closeReopened(SessionStore reopened) {
    reopened.close();
  }

  /** Releases what {@link #openStore()} made, after the store is closed. */
  void cleanUp() {
  }

  @BeforeEach
  void open() {
    store = openStore();
    memoryStore = SessionStoreChatMemoryStore.builder(store).build();
  }

  @AfterEach
  void close() {
    store.close();
    cleanUp();
  }

  @Test
  @DisplayName("an unknown memory is empty, and an empty list empties a memory")
  void emptyMemory() {
    assertThat(memoryStore.getMessages("unknown")).isEmpty();
    memoryStore.updateMessages("m", List.of(UserMessage.from("hi")));

    memoryStore.updateMessages("m", List.of());

    assertThat(memoryStore.getMessages("m")).isEmpty();
    assertThat(memoryStore.memoryIds()).containsExactly("m");
  }

  @Test
  @DisplayName("updateMessages replaces the memory's messages")
  void updateReplaces() {
    memoryStore.updateMessages("m", List.of(SystemMessage.from("sys"), UserMessage.from("q1")));
    assertThat(memoryStore.getMessages("m")).containsExactly(SystemMessage.from("sys"), UserMessage.from("q1"));

    memoryStore.updateMessages("m", List.of(UserMessage.from("other"), AiMessage.from("answer")));

    assertThat(memoryStore.getMessages("m")).containsExactly(UserMessage.from("other"), AiMessage.from("answer"));
    assertThat(SessionStoreChatMemoryStore.builder(store).build().getMessages("m"))
        .containsExactly(UserMessage.from("other"), AiMessage.from("answer"));
  }

  @Test
  @DisplayName("several memory ids are kept apart; ids map to sessions by String.valueOf or the builder's rule")
  void severalIds() {
    UUID uuid = UUID.fromString("00000000-0000-0000-0000-00000000002a");
    memoryStore.updateMessages("a", List.of(UserMessage.from("for a")));
    memoryStore.updateMessages(7, List.of(UserMessage.from("for 7")));
    memoryStore.updateMessages(uuid, List.of(UserMessage.from("for uuid")));

    assertThat(memoryStore.getMessages("a")).containsExactly(UserMessage.from("for a"));
    assertThat(memoryStore.getMessages(7)).containsExactly(UserMessage.from("for 7"));
    assertThat(memoryStore.getMessages("7")).containsExactly(UserMessage.from("for 7"));
    assertThat(memoryStore.getMessages(uuid)).containsExactly(UserMessage.from("for uuid"));
    assertThat(memoryStore.memoryIds()).containsExactlyInAnyOrder("a", "7", uuid.toString());

    SessionStoreChatMemoryStore prefixed = SessionStoreChatMemoryStore.builder(store).owner("tenant-1")
        .memoryIdRule(id -> "tenant-1:" + id).build();
    prefixed.updateMessages("a", List.of(UserMessage.from("tenant's a")));
    assertThat(prefixed.getMessages("a")).containsExactly(UserMessage.from("tenant's a"));
    assertThat(memoryStore.getMessages("a")).containsExactly(UserMessage.from("for a"));
    assertThat(prefixed.memoryIds()).containsExactly("tenant-1:a");
    assertThat(store.sessions().find("tenant-1:a").orElseThrow().metadata())
        .containsEntry(ChatLog.DEFAULT_OWNER_KEY, "tenant-1");
  }

  @Test
  @DisplayName("a null memory id, or one the rule maps to null or blank, is an IllegalArgumentException naming it")
  void nullIds() {
    assertThatThrownBy(() -> memoryStore.getMessages(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("memoryId");
    assertThatThrownBy(() -> memoryStore.updateMessages(null, List.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("memoryId");
    assertThatThrownBy(() -> memoryStore.deleteMessages(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("memoryId");
    assertThatThrownBy(() -> memoryStore.updateMessages("m", null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("messages");
    SessionStoreChatMemoryStore blank = SessionStoreChatMemoryStore.builder(store).memoryIdRule(id -> " ").build();
    assertThatThrownBy(() -> blank.getMessages("x")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("memoryId x");
    assertThat(store.sessions().list(dev.sessionstore.SessionQuery.all()).items()).isEmpty();
  }

  @Test
  @DisplayName("deleteMessages deletes the memory and its full history; other memories stay")
  void delete() {
    memoryStore.updateMessages("a", List.of(UserMessage.from("1")));
    memoryStore.updateMessages("b", List.of(UserMessage.from("2")));

    memoryStore.deleteMessages("a");
    memoryStore.deleteMessages("unknown");

    assertThat(memoryStore.getMessages("a")).isEmpty();
    assertThat(memoryStore.history("a")).isEmpty();
    assertThat(store.sessions().find("a")).isEmpty();
    assertThat(memoryStore.getMessages("b")).containsExactly(UserMessage.from("2"));
    assertThat(memoryStore.memoryIds()).containsExactly("b");
  }

  @Test
  @DisplayName("every message type comes back equal: contents of each kind, names, thinking, tool requests, custom")
  void everyMessageTypeRoundTrips() {
    List<ChatMessage> saved = everyMessageType();

    memoryStore.updateMessages("m", saved);
    List<ChatMessage> read = SessionStoreChatMemoryStore.builder(store).build().getMessages("m");

    assertThat(read).isEqualTo(saved);
    assertThat(((AiMessage) read.get(2)).thinking()).isEqualTo("the user wants the weather");
    assertThat(((UserMessage) read.get(1)).name()).isEqualTo("ada");
    assertThat(((UserMessage) read.get(1)).contents()).hasSize(7);
    assertThat(memoryStore.history("m")).isEqualTo(saved);
    assertThat(store.events().read("m", EventQuery.all()).items()).extracting(dev.sessionstore.Event::type)
        .containsExactly("system_message", "user_message", "ai_message", "tool_execution_result_message",
            "tool_execution_result_message", "ai_message", "custom_message");
  }

  static List<ChatMessage> everyMessageType() {
    UserMessage user = UserMessage.builder().name("ada").contents(List.of(
        TextContent.from("look at these"),
        ImageContent.from("https://x.test/a.png", ImageContent.DetailLevel.HIGH),
        ImageContent.from("iVBORw0KGgo=", "image/png"),
        AudioContent.from("UklGRg==", "audio/wav"),
        PdfFileContent.from("https://x.test/a.pdf"),
        PdfFileContent.from("JVBERi0=", "application/pdf"),
        VideoContent.from("https://x.test/a.mp4"))).build();
    ToolExecutionRequest weather = ToolExecutionRequest.builder().id("call-1").name("weather")
        .arguments("{\"city\":\"Paris\"}").build();
    ToolExecutionRequest time = ToolExecutionRequest.builder().id("call-2").name("time").arguments("{}").build();
    AiMessage calls = AiMessage.builder().text("checking").thinking("the user wants the weather")
        .toolExecutionRequests(List.of(weather, time)).build();
    return List.of(
        SystemMessage.from("be brief"),
        user,
        calls,
        ToolExecutionResultMessage.from(weather, "sunny"),
        ToolExecutionResultMessage.builder().id("call-2").toolName("time").text("noon").isError(false).build(),
        AiMessage.from("sunny at noon"),
        CustomMessage.from(Map.of("kind", "note", "count", 3, "tags", List.of("a", "b"))));
  }

  @Test
  @DisplayName("MessageWindowChatMemory: eviction keeps the full history in the log and the system message first")
  void messageWindowKeepsHistory() {
    ChatMemory memory = MessageWindowChatMemory.builder().id("m").maxMessages(4).chatMemoryStore(memoryStore)
        .build();
    memory.add(SystemMessage.from("sys"));
    List<ChatMessage> all = new ArrayList<>(List.of(SystemMessage.from("sys")));
    for (int turn = 0; turn < 6; turn++) {
      memory.add(UserMessage.from("q" + turn));
      memory.add(AiMessage.from("a" + turn));
      all.add(UserMessage.from("q" + turn));
      all.add(AiMessage.from("a" + turn));
    }

    assertThat(memory.messages()).containsExactly(SystemMessage.from("sys"), AiMessage.from("a4"),
        UserMessage.from("q5"), AiMessage.from("a5"));
    assertThat(memoryStore.getMessages("m")).isEqualTo(memory.messages());
    assertThat(memoryStore.history("m")).isEqualTo(all);
    HistoryPage<ChatMessage> newest = memoryStore.history("m", EventQuery.all().last(2));
    assertThat(newest.messages()).containsExactly(UserMessage.from("q5"), AiMessage.from("a5"));
    assertThat(newest.nextCursor()).isPresent();
    // one event per message plus the window records: the history was never rewritten
    assertThat(store.events().read("m", EventQuery.all().types("user_message", "ai_message", "system_message"))
        .items()).hasSize(13);
  }

  @Test
  @DisplayName("a system message MessageWindowChatMemory replaces leaves the window and stays in the history")
  void replacedSystemMessageStaysInHistory() {
    ChatMemory memory = MessageWindowChatMemory.builder().id("m").maxMessages(10).chatMemoryStore(memoryStore)
        .build();
    memory.add(SystemMessage.from("v1"));
    memory.add(UserMessage.from("q1"));
    memory.add(AiMessage.from("a1"));

    memory.add(SystemMessage.from("v2"));
    memory.add(UserMessage.from("q2"));

    assertThat(memory.messages()).containsExactly(UserMessage.from("q1"), AiMessage.from("a1"),
        SystemMessage.from("v2"), UserMessage.from("q2"));
    assertThat(memoryStore.history("m")).containsExactly(SystemMessage.from("v1"), UserMessage.from("q1"),
        AiMessage.from("a1"), SystemMessage.from("v2"), UserMessage.from("q2"));
  }

  @Test
  @DisplayName("TokenWindowChatMemory with a fake tokenizer: the window by tokens, the full history in the log")
  void tokenWindowKeepsHistory() {
    TokenCountEstimator words = new WordCount();
    ChatMemory memory = TokenWindowChatMemory.builder().id("m").maxTokens(6, words).chatMemoryStore(memoryStore)
        .build();
    List<ChatMessage> all = new ArrayList<>();
    for (int turn = 0; turn < 4; turn++) {
      UserMessage question = UserMessage.from("question number " + turn);
      AiMessage answer = AiMessage.from("answer " + turn);
      memory.add(question);
      memory.add(answer);
      all.add(question);
      all.add(answer);
    }

    // 3 + 2 tokens fit in 6; one more message would not
    assertThat(memory.messages()).containsExactly(UserMessage.from("question number 3"), AiMessage.from("answer 3"));
    assertThat(memoryStore.getMessages("m")).isEqualTo(memory.messages());
    assertThat(memoryStore.history("m")).isEqualTo(all);
  }

  /** A tokenizer counting words, a token per word. */
  static final class WordCount implements TokenCountEstimator {

    @Override
    public int estimateTokenCountInText(String text) {
      return text == null || text.isBlank() ? 0 : text.trim().split("\\s+").length;
    }

    @Override
    public int estimateTokenCountInMessage(ChatMessage message) {
      if (message instanceof UserMessage user) {
        return estimateTokenCountInText(user.singleText());
      }
      if (message instanceof AiMessage ai) {
        return estimateTokenCountInText(ai.text());
      }
      if (message instanceof SystemMessage system) {
        return estimateTokenCountInText(system.text());
      }
      if (message instanceof ToolExecutionResultMessage result) {
        return estimateTokenCountInText(result.text());
      }
      return 1;
    }

    @Override
    public int estimateTokenCountInMessages(Iterable<ChatMessage> messages) {
      int count = 0;
      for (ChatMessage message : messages) {
        count += estimateTokenCountInMessage(message);
      }
      return count;
    }
  }

  /**
   * Follows LangChain4j's {@code InMemoryChatMemoryStore} tests (update, then get returns the list) with tool
   * messages: a store returns a list as updated, whatever it starts with, whether the list is written directly or
   * built from a read (where it evicts the messages it drops).
   */
  @Test
  @DisplayName("getMessages returns what updateMessages stored, tool results included, directly or after a read")
  void returnsWhatWasSaved() {
    ToolExecutionRequest request = ToolExecutionRequest.builder().id("call-1").name("weather").arguments("{}")
        .build();
    AiMessage call = AiMessage.from(request);
    ToolExecutionResultMessage result = ToolExecutionResultMessage.from(request, "sunny");
    SystemMessage system = SystemMessage.from("sys");
    UserMessage user = UserMessage.from("weather?");
    AiMessage answer = AiMessage.from("sunny");

    memoryStore.updateMessages("tool-only", List.of(result));
    memoryStore.updateMessages("direct", List.of(system, result, answer));
    memoryStore.updateMessages("after-read", List.of(system, user, result, answer));
    List<ChatMessage> read = memoryStore.getMessages("after-read");
    memoryStore.updateMessages("after-read", List.of(read.get(0), read.get(2), read.get(3)));
    memoryStore.updateMessages("call-evicted", List.of(system, call, result, user));
    read = memoryStore.getMessages("call-evicted");
    memoryStore.updateMessages("call-evicted", List.of(read.get(0), read.get(2), read.get(3), answer));
    memoryStore.updateMessages("leading", List.of(user, call, result));
    read = memoryStore.getMessages("leading");
    memoryStore.updateMessages("leading", List.of(read.get(2), answer));

    SessionStoreChatMemoryStore other = SessionStoreChatMemoryStore.builder(store).build();
    for (SessionStoreChatMemoryStore each : List.of(memoryStore, other)) {
      assertThat(each.getMessages("tool-only")).containsExactly(result);
      assertThat(each.getMessages("direct")).containsExactly(system, result, answer);
      assertThat(each.getMessages("after-read")).containsExactly(system, result, answer);
      assertThat(each.getMessages("call-evicted")).containsExactly(system, result, user, answer);
      assertThat(each.getMessages("leading")).containsExactly(result, answer);
    }
    assertThat(memoryStore.history("leading")).containsExactly(user, call, result, answer);
  }

  /**
   * Follows LangChain4j's {@code MessageWindowChatMemoryTest} (eviction beyond the limit, the system message kept,
   * the results of an evicted tool request evicted with it) over this store: after every {@code add}, the memory
   * holds the same window as the same memory over LangChain4j's {@code InMemoryChatMemoryStore}.
   */
  @Test
  @DisplayName("MessageWindowChatMemory keeps the same window over this store as over LangChain4j's in-memory one")
  void sameWindowAsLangChain4jsOwnStore() {
    for (int maxMessages : new int[] {2, 3, 4, 5}) {
      String memoryId = "window-" + maxMessages;
      ChatMemory memory = MessageWindowChatMemory.builder().id(memoryId).maxMessages(maxMessages)
          .chatMemoryStore(memoryStore).build();
      ChatMemory reference = MessageWindowChatMemory.builder().id(memoryId).maxMessages(maxMessages)
          .chatMemoryStore(new InMemoryChatMemoryStore()).build();
      List<ChatMessage> script = new ArrayList<>(List.of(SystemMessage.from("sys")));
      for (int turn = 0; turn < 3; turn++) {
        ToolExecutionRequest request = ToolExecutionRequest.builder().id("call-" + turn).name("weather")
            .arguments("{}").build();
        script.add(UserMessage.from("q" + turn));
        script.add(AiMessage.from(request));
        script.add(ToolExecutionResultMessage.from(request, "sunny " + turn));
        script.add(AiMessage.from("a" + turn));
      }
      Set<ChatMessage> everInAWindow = new HashSet<>();
      for (int step = 0; step < script.size(); step++) {
        memory.add(script.get(step));
        reference.add(script.get(step));
        assertThat(memory.messages()).as("max %d, after message %d", maxMessages, step)
            .isEqualTo(reference.messages());
        everInAWindow.addAll(reference.messages());
      }
      // eviction never cuts the history, also when the window keeps only its system message
      assertThat(memoryStore.history(memoryId)).as("history, max %d", maxMessages)
          .isEqualTo(script.stream().filter(everInAWindow::contains).toList());
    }
  }

  @Test
  @DisplayName("a list of new instances from a caller that never read replaces the memory: last writer wins")
  void blindWriteReplaces() {
    memoryStore.updateMessages("m", List.of(UserMessage.from("q1"), AiMessage.from("a1")));
    SessionStoreChatMemoryStore other = SessionStoreChatMemoryStore.builder(store).build();

    other.updateMessages("m", List.of(UserMessage.from("x"), AiMessage.from("y")));

    assertThat(memoryStore.getMessages("m")).containsExactly(UserMessage.from("x"), AiMessage.from("y"));
  }

  @Test
  @DisplayName("two store instances taking turns on one memory each see what the other wrote since its last call")
  void instancesTakingTurnsSeeEachOther() {
    SessionStoreChatMemoryStore other = SessionStoreChatMemoryStore.builder(store).build();
    ChatMemory first = MessageWindowChatMemory.builder().id("m").maxMessages(3).chatMemoryStore(memoryStore).build();
    ChatMemory second = MessageWindowChatMemory.builder().id("m").maxMessages(3).chatMemoryStore(other).build();
    first.add(UserMessage.from("q1"));
    second.add(AiMessage.from("a1"));
    first.add(UserMessage.from("q2"));
    second.add(AiMessage.from("a2"));
    first.add(UserMessage.from("q3"));

    assertThat(memoryStore.getMessages("m")).containsExactly(UserMessage.from("q2"), AiMessage.from("a2"),
        UserMessage.from("q3"));
    assertThat(other.getMessages("m")).isEqualTo(memoryStore.getMessages("m"));
    assertThat(memoryStore.history("m")).containsExactly(UserMessage.from("q1"), AiMessage.from("a1"),
        UserMessage.from("q2"), AiMessage.from("a2"), UserMessage.from("q3"));

    // a blind list equal to what this instance last wrote, after the other replaced it: written, not skipped
    memoryStore.updateMessages("n", List.of(UserMessage.from("q"), AiMessage.from("a")));
    other.updateMessages("n", List.of(UserMessage.from("x")));
    memoryStore.updateMessages("n", List.of(UserMessage.from("q"), AiMessage.from("a")));
    assertThat(other.getMessages("n")).containsExactly(UserMessage.from("q"), AiMessage.from("a"));
  }

  @Test
  @DisplayName("an async read left on a pooled thread does not make a later blind async write of the memory an append")
  void asyncReadsAreNotTiedToPooledThreads() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      SessionStoreChatMemoryStore async = SessionStoreChatMemoryStore.builder(store).executor(pool).build();
      assertThat(async.getMessagesAsync("m").get(30, TimeUnit.SECONDS)).isEmpty();
      memoryStore.updateMessages("m", List.of(UserMessage.from("x")));

      async.updateMessagesAsync("m", List.of(UserMessage.from("y"))).get(30, TimeUnit.SECONDS);

      assertThat(memoryStore.getMessages("m")).containsExactly(UserMessage.from("y"));
    } finally {
      pool.shutdown();
    }
  }

  @Test
  @DisplayName("async methods run on the builder's executor and fail their future as the blocking ones throw")
  void asyncMethods() throws Exception {
    AtomicInteger tasks = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      SessionStoreChatMemoryStore async = SessionStoreChatMemoryStore.builder(store)
          .executor(task -> {
            tasks.incrementAndGet();
            pool.execute(task);
          }).build();

      async.updateMessagesAsync("m", List.of(UserMessage.from("q"))).get(30, TimeUnit.SECONDS);
      List<ChatMessage> read = async.getMessagesAsync("m").get(30, TimeUnit.SECONDS);
      List<ChatMessage> next = new ArrayList<>(read);
      next.add(AiMessage.from("a"));
      async.updateMessagesAsync("m", next).get(30, TimeUnit.SECONDS);
      assertThat(async.getMessagesAsync("m").get(30, TimeUnit.SECONDS)).containsExactly(UserMessage.from("q"),
          AiMessage.from("a"));
      async.deleteMessagesAsync("m").get(30, TimeUnit.SECONDS);
      assertThat(memoryStore.getMessages("m")).isEmpty();
      assertThat(tasks).hasValue(5);
      assertThatThrownBy(() -> async.getMessagesAsync(null).join()).isInstanceOf(CompletionException.class)
          .hasCauseInstanceOf(IllegalArgumentException.class);
    } finally {
      pool.shutdown();
    }
  }

  @Test
  @DisplayName("16 threads adding through one MessageWindowChatMemory: every message stored once, in each one's order")
  void concurrentUpdatesLoseNothing() throws Exception {
    for (int round = 0; round < concurrentRounds(); round++) {
      concurrentRound("shared-" + round);
    }
  }

  /** How many times the 16-thread test runs, each on a memory of its own. */
  abstract int concurrentRounds();

  private void concurrentRound(String memoryId) throws Exception {
    ChatMemory memory = MessageWindowChatMemory.builder().id(memoryId).maxMessages(10).chatMemoryStore(memoryStore)
        .build();
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
          memory.add(UserMessage.from("t" + thread + "-" + turn));
        }
        return null;
      }));
    }
    start.countDown();
    try {
      for (Future<?> future : done) {
        future.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdown();
    }

    List<String> history = texts(memoryStore.history(memoryId));
    assertThat(history).as("%s: every message stored exactly once", memoryId).hasSize(threads * turns)
        .doesNotHaveDuplicates();
    for (int t = 0; t < threads; t++) {
      String prefix = "t" + t + "-";
      List<String> own = history.stream().filter(text -> text.startsWith(prefix)).toList();
      List<String> expected = new ArrayList<>();
      for (int turn = 0; turn < turns; turn++) {
        expected.add(prefix + turn);
      }
      assertThat(own).as("%s: thread %d's messages in its order", memoryId, t).isEqualTo(expected);
    }
    List<String> window = texts(memory.messages());
    assertThat(window).as("%s: the window is the newest part of the history", memoryId)
        .isEqualTo(history.subList(history.size() - window.size(), history.size())).hasSize(10);

    memory.add(UserMessage.from("last"));

    List<String> after = texts(memoryStore.history(memoryId));
    assertThat(texts(memory.messages())).isEqualTo(after.subList(after.size() - 10, after.size()));
  }

  private static List<String> texts(List<ChatMessage> messages) {
    return messages.stream().map(message -> ((UserMessage) message).singleText()).toList();
  }

  @Test
  @DisplayName("a turn through a window of 20 writes the same events at a history of 30, 300 and 3,000 messages")
  void turnCostIndependentOfHistory() {
    List<Long> written = new ArrayList<>();
    for (int history : List.of(30, 300, 3_000)) {
      String id = "h" + history;
      List<ChatMessage> messages = new ArrayList<>();
      for (int i = 0; i < history; i++) {
        messages.add(i % 2 == 0 ? UserMessage.from("q" + i) : AiMessage.from("a" + i));
      }
      memoryStore.updateMessages(id, messages);
      ChatMemory memory = MessageWindowChatMemory.builder().id(id).maxMessages(20).chatMemoryStore(memoryStore)
          .build();
      // the first add shrinks the window to 20 (recorded from a seq), the second slides it (recorded as the newest 20)
      memory.add(UserMessage.from("warm-up"));
      memory.add(AiMessage.from("warm-up answer"));
      long before = store.events().lastSeq(id);

      memory.add(UserMessage.from("next"));
      memory.add(AiMessage.from("answer"));

      written.add(store.events().lastSeq(id) - before);
      assertThat(memoryStore.history(id)).hasSize(history + 4);
      assertThat(memory.messages()).hasSize(20).endsWith(UserMessage.from("next"), AiMessage.from("answer"));
    }
    // the two messages only: each evicts one message from the full window, which leaves its record as it is
    assertThat(written).containsExactly(2L, 2L, 2L);
  }

  @Test
  @DisplayName("another store instance over the same database reads the same memory back")
  void reopenedStoreReadsTheSameMemory() {
    memoryStore.updateMessages("m", everyMessageType());
    SessionStore reopened = reopenStore();
    try {
      assertThat(SessionStoreChatMemoryStore.builder(reopened).build().getMessages("m"))
          .isEqualTo(everyMessageType());
    } finally {
      closeReopened(reopened);
    }
  }

  /**
   * The default mode, as LangChain4j's own stores and quarkus-langchain4j's scope close (quarkus-langchain4j #1761)
   * use it: {@code ChatMemory.clear()} calls {@code deleteMessages}, which deletes the memory with its history.
   */
  @Test
  @DisplayName("by default ChatMemory.clear() deletes the memory's session and its whole history")
  void clearDeletesByDefault() {
    ChatMemory memory = MessageWindowChatMemory.builder().id("m").maxMessages(10).chatMemoryStore(memoryStore)
        .build();
    memory.add(SystemMessage.from("sys"));
    memory.add(UserMessage.from("q1"));

    memory.clear();

    assertThat(memory.messages()).isEmpty();
    assertThat(memoryStore.history("m")).isEmpty();
    assertThat(store.sessions().find("m")).isEmpty();
    assertThat(memoryStore.memoryIds()).isEmpty();
  }

  /**
   * quarkus-langchain4j #1761: the extension calls {@code deleteMessages} for every memory of an AI service whose
   * bean scope closes, at a pod's shutdown included. With {@code keepHistoryOnClear(true)} the memory reads as empty
   * after the clear (no old message goes back to the model), new messages start a new window, and the whole history
   * stays readable, also through a store opened afterwards (the next pod).
   */
  @Test
  @DisplayName("keepHistoryOnClear: clear() empties the window, keeps the history; new messages start a new window")
  void clearKeepsHistoryWhenAsked() {
    SessionStoreChatMemoryStore keeping = SessionStoreChatMemoryStore.builder(store).keepHistoryOnClear(true)
        .build();
    ChatMemory memory = MessageWindowChatMemory.builder().id("m").maxMessages(10).chatMemoryStore(keeping).build();
    memory.add(SystemMessage.from("sys"));
    memory.add(UserMessage.from("q1"));
    memory.add(AiMessage.from("a1"));

    memory.clear();
    keeping.deleteMessages("m");
    keeping.deleteMessages("unknown");

    assertThat(memory.messages()).isEmpty();
    assertThat(keeping.getMessages("m")).isEmpty();
    assertThat(SessionStoreChatMemoryStore.builder(store).build().getMessages("m")).isEmpty();
    assertThat(keeping.history("m")).containsExactly(SystemMessage.from("sys"), UserMessage.from("q1"),
        AiMessage.from("a1"));
    assertThat(keeping.memoryIds()).containsExactly("m");
    assertThat(store.sessions().find("unknown")).isEmpty();

    SessionStore reopened = reopenStore();
    try {
      SessionStoreChatMemoryStore nextPod = SessionStoreChatMemoryStore.builder(reopened).keepHistoryOnClear(true)
          .build();
      ChatMemory resumed = MessageWindowChatMemory.builder().id("m").maxMessages(10).chatMemoryStore(nextPod)
          .build();
      assertThat(resumed.messages()).isEmpty();
      resumed.add(UserMessage.from("q2"));
      resumed.add(AiMessage.from("a2"));

      assertThat(resumed.messages()).containsExactly(UserMessage.from("q2"), AiMessage.from("a2"));
      assertThat(nextPod.getMessages("m")).containsExactly(UserMessage.from("q2"), AiMessage.from("a2"));
      assertThat(nextPod.history("m")).containsExactly(SystemMessage.from("sys"), UserMessage.from("q1"),
          AiMessage.from("a1"), UserMessage.from("q2"), AiMessage.from("a2"));
    } finally {
      closeReopened(reopened);
    }

    // a blind list written after a clear is the window, the cleared messages stay behind it
    keeping.deleteMessages("m");
    SessionStoreChatMemoryStore.builder(store).build().updateMessages("m", List.of(UserMessage.from("q3")));
    assertThat(keeping.getMessages("m")).containsExactly(UserMessage.from("q3"));
    assertThat(keeping.history("m")).hasSize(6);
  }
}
