package dev.sessionstore.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.chat.ChatLog;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.StatementCounter;
import dev.sessionstore.jdbc.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * How the window is recorded in the log, counted in rows on PostgreSQL: a window event only when the window's record
 * changes (the first eviction, a new size, a new pinned message, a cut), none for an add to a growing window or an add
 * that slides a full one. Each case checks the window against LangChain4j's own in-memory store driven the same way,
 * both through the store that wrote it (its kept window) and through a fresh store instance (read from the log).
 */
class WindowRecordTest {

  private String schema;
  private HikariDataSource pool;
  private StatementCounter counter;
  private SessionStore store;
  private SessionStoreChatMemoryStore memoryStore;
  private final InMemoryChatMemoryStore reference = new InMemoryChatMemoryStore();
  private int messages;

  @BeforeEach
  void open() {
    schema = TestDatabase.uniqueName("lc4j_window");
    pool = Pools.postgres(schema, 20);
    counter = new StatementCounter();
    store = JdbcSessionStore.builder().dataSource(counter.wrap(pool)).schema(schema).notifications(false)
        .deadlineSweepInterval(Duration.ofHours(1)).build();
    memoryStore = SessionStoreChatMemoryStore.builder(store).build();
  }

  @AfterEach
  void close() {
    store.close();
    pool.close();
    TestDatabase.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }

  @Test
  @DisplayName("a growing window and a full one sliding by one write their messages only; the first eviction records"
      + " the window once")
  void slidingWritesNoWindowEvent() {
    Memories memories = memories("m", 4);

    assertThat(rowsOf("m", () -> memories.add(4))).as("rows of 4 adds to a window not yet full").isEqualTo(4);
    assertThat(windowEvents("m")).isZero();
    assertThat(rowsOf("m", () -> memories.add(1))).as("rows of the add that first evicts").isEqualTo(2);
    assertThat(rowsOf("m", () -> memories.add(10))).as("rows of 10 adds sliding the full window").isEqualTo(10);

    assertThat(windowEvents("m")).isEqualTo(1);
    memories.assertSameWindow();
    assertThat(memoryStore.history("m")).hasSize(15);
  }

  @Test
  @DisplayName("a new window size is recorded once when the window grows or shrinks and once when it slides again")
  void sizeChangesAreRecordedOnce() {
    memories("m", 4).add(6);
    assertThat(windowEvents("m")).isEqualTo(1);

    Memories wider = memories("m", 6);
    wider.add(2);
    assertThat(windowEvents("m")).as("growing from 4 to 6: one record, then none").isEqualTo(2);
    wider.assertSameWindow();
    wider.add(3);
    assertThat(windowEvents("m")).as("full at 6, sliding: one record, then none").isEqualTo(3);
    wider.assertSameWindow();

    Memories narrower = memories("m", 3);
    narrower.add(1);
    assertThat(windowEvents("m")).as("shrunk to 3 by one add").isEqualTo(4);
    narrower.add(4);
    assertThat(windowEvents("m")).as("sliding at 3: one record, then none").isEqualTo(5);
    narrower.assertSameWindow();
  }

  @Test
  @DisplayName("a system message stays pinned: recorded with the first eviction, then none while the rest slides")
  void pinnedSystemMessage() {
    Memories memories = memories("m", 4);
    memories.add(SystemMessage.from("be brief"));
    memories.add(3);
    assertThat(windowEvents("m")).isZero();

    assertThat(rowsOf("m", () -> memories.add(1))).as("rows of the add that first evicts").isEqualTo(2);
    assertThat(rowsOf("m", () -> memories.add(8))).as("rows of 8 adds sliding past the pinned message")
        .isEqualTo(8);

    assertThat(windowEvents("m")).isEqualTo(1);
    assertThat(memoryStore.getMessages("m")).first().isEqualTo(SystemMessage.from("be brief"));
    memories.assertSameWindow();
  }

  @Test
  @DisplayName("an edit of a sliding window cuts the log and records the window; read back from the log it is the list")
  void cutRecordsTheWindow() {
    Memories memories = memories("m", 4);
    memories.add(9);
    long events = windowEvents("m");
    List<ChatMessage> edited = memoryStore.getMessages("m");
    edited.set(3, AiMessage.from("edited"));

    memoryStore.updateMessages("m", edited);

    assertThat(windowEvents("m")).isEqualTo(events + 1);
    assertThat(fresh().getMessages("m")).isEqualTo(edited);
    assertThat(memoryStore.getMessages("m")).isEqualTo(edited);
    memories.add(3);
    assertThat(fresh().getMessages("m")).isEqualTo(memoryStore.getMessages("m")).hasSize(4)
        .doesNotContain(edited.get(0));
  }

  @Test
  @DisplayName("a window read from the log costs the same statements at 30, 300 and 3,000 messages of history")
  void readFromTheLogIsFlat() {
    List<Long> costs = new ArrayList<>();
    for (int history : new int[] {30, 300, 3_000}) {
      String id = "h" + history;
      List<ChatMessage> filled = new ArrayList<>();
      for (int i = 0; i < history; i++) {
        filled.add(message());
      }
      memoryStore.updateMessages(id, filled);
      memories(id, 10).add(25);
      SessionStoreChatMemoryStore other = fresh();
      long before = counter.statements();
      List<ChatMessage> window = other.getMessages(id);
      costs.add(counter.statements() - before);
      assertThat(window).isEqualTo(memoryStore.getMessages(id)).hasSize(10);
    }
    // the last seq, the newest window event, the newest events down to the tail, the newest window event again (the
    // tail did not reach it: it was written 25 adds ago)
    assertThat(costs).containsExactly(4L, 4L, 4L);
  }

  @Test
  @DisplayName("8 threads on two store instances sliding one full window: every message stored once, in each one's"
      + " order, and the window read from the log is the newest of the history")
  void concurrentSlidesLoseNothing() throws Exception {
    memories("m", 5).add(5);
    SessionStoreChatMemoryStore second = fresh();
    int threads = 8;
    int adds = 6;
    ExecutorService executor = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      ChatMemory memory = MessageWindowChatMemory.builder().id("m").maxMessages(5)
          .chatMemoryStore(t % 2 == 0 ? memoryStore : second).build();
      String prefix = "t" + t + "-";
      done.add(executor.submit(() -> {
        start.await();
        for (int i = 0; i < adds; i++) {
          memory.add(UserMessage.from(prefix + i));
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
      executor.shutdown();
    }

    List<String> history = texts(memoryStore.history("m"));
    assertThat(history).hasSize(5 + threads * adds).doesNotHaveDuplicates();
    for (int t = 0; t < threads; t++) {
      String prefix = "t" + t + "-";
      assertThat(history.stream().filter(text -> text.startsWith(prefix)).toList()).as("thread %d's order", t)
          .isSortedAccordingTo((a, b) -> Integer.compare(index(a), index(b))).hasSize(adds);
    }
    List<String> window = texts(fresh().getMessages("m"));
    assertThat(window).hasSizeGreaterThanOrEqualTo(5)
        .isEqualTo(history.subList(history.size() - window.size(), history.size()))
        .isEqualTo(texts(memoryStore.getMessages("m"))).isEqualTo(texts(second.getMessages("m")));
  }

  /** The rows {@code writes} appends to the memory's log. */
  private long rowsOf(String id, Runnable writes) {
    long before = store.events().lastSeq(id);
    writes.run();
    return store.events().lastSeq(id) - before;
  }

  private long windowEvents(String id) {
    return store.events().read(id, EventQuery.all().types(ChatLog.WINDOW_EVENT_TYPE)).items().size();
  }

  private SessionStoreChatMemoryStore fresh() {
    return SessionStoreChatMemoryStore.builder(store).build();
  }

  private Memories memories(String id, int window) {
    return new Memories(id,
        MessageWindowChatMemory.builder().id(id).maxMessages(window).chatMemoryStore(memoryStore).build(),
        MessageWindowChatMemory.builder().id(id).maxMessages(window).chatMemoryStore(reference).build());
  }

  private ChatMessage message() {
    int i = messages++;
    return i % 2 == 0 ? UserMessage.from("question " + i) : AiMessage.from("answer " + i);
  }

  private static int index(String text) {
    return Integer.parseInt(text.substring(text.indexOf('-') + 1));
  }

  private static List<String> texts(List<ChatMessage> messages) {
    return messages.stream().map(message -> message instanceof UserMessage user ? user.singleText()
        : message instanceof AiMessage ai ? ai.text() : ((SystemMessage) message).text()).toList();
  }

  /** A memory over the store under test and the same memory over LangChain4j's own store, driven alike. */
  private final class Memories {

    private final String id;
    private final ChatMemory tested;
    private final ChatMemory expected;

    Memories(String id, ChatMemory tested, ChatMemory expected) {
      this.id = id;
      this.tested = tested;
      this.expected = expected;
    }

    void add(int count) {
      for (int i = 0; i < count; i++) {
        add(message());
      }
    }

    void add(ChatMessage message) {
      tested.add(message);
      expected.add(message);
    }

    void assertSameWindow() {
      assertThat(memoryStore.getMessages(id)).as("the window kept by the store that wrote it")
          .isEqualTo(expected.messages());
      assertThat(fresh().getMessages(id)).as("the window read from the log").isEqualTo(expected.messages());
    }
  }
}
