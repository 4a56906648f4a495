package dev.sessionstore.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.chat.ChatLog;
import dev.sessionstore.chat.HistoryPage;
import dev.sessionstore.langchain4j.internal.AsyncExecutors;
import dev.sessionstore.langchain4j.internal.LangChain4jMessageCodec;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * LangChain4j's {@link ChatMemoryStore} on any {@link SessionStore}: one memory is one session, one message one
 * event whose payload is LangChain4j's own JSON of the message, the log keeps the full history, and
 * {@link #getMessages} returns the window the chat memory last stored. Writes are O(new messages) whatever the
 * history's length, atomic, and safe under concurrent calls.
 *
 * <pre>{@code
 * ChatMemoryStore memoryStore = SessionStoreChatMemoryStore.builder(store).build();
 * ChatMemoryProvider memories = id -> MessageWindowChatMemory.builder().id(id).maxMessages(20)
 *     .chatMemoryStore(memoryStore).build();
 * }</pre>
 *
 * <h2>Memory ids</h2>
 * LangChain4j passes an {@code Object}; the session id is {@code memoryIdRule.apply(memoryId)},
 * {@link String#valueOf} unless the builder sets another rule. Ids whose rule gives the same string share a memory.
 * A null id, or a rule giving a null or blank string, is an {@link IllegalArgumentException} naming the id.
 *
 * <h2>Messages</h2>
 * Every message type round-trips equal (by its own {@code equals}): {@code SystemMessage}, {@code UserMessage} with
 * any contents (text, image, audio, PDF, video) and a name, {@code AiMessage} with text, thinking, tool execution
 * requests and attributes, {@code ToolExecutionResultMessage}, {@code CustomMessage}, as far as LangChain4j's JSON
 * carries them ({@code ChatMessageSerializer}).
 *
 * <h2>updateMessages</h2>
 * Makes the memory's window the list given, writing one step with the expected last seq: appending the new
 * messages when the stored window is a prefix of the list; when the list drops the oldest messages (window
 * eviction, a first system message kept), the evicted ones stay in the log and the window's record changes only if
 * it must (a full window that evicts one message per add keeps "the newest 20" and writes its message alone); cutting
 * the log where the list first differs and appending the rest otherwise. A list built from this store's own read (the
 * instances {@link #getMessages} returned, as chat memories do) never loses what another caller wrote meanwhile; a
 * list of other instances written by a caller that never read the memory replaces it (last writer wins, two such
 * lists never mixed). See {@link ChatLog}.
 *
 * <h2>What is stored comes back</h2>
 * {@link #getMessages} returns the list {@link #updateMessages} last stored, message for message, whatever it holds
 * or starts with (a {@code ToolExecutionResultMessage} included), as LangChain4j's {@code InMemoryChatMemoryStore}
 * does; so a chat memory keeps the same window over this store as over LangChain4j's own (its
 * {@code MessageWindowChatMemory} evicts the results of an evicted tool request itself).
 *
 * <h2>Clearing</h2>
 * {@link #deleteMessages} deletes the memory with its whole history, as LangChain4j's own stores do, unless the
 * builder sets {@link Builder#keepHistoryOnClear}: then it appends a window event after which the memory's window
 * starts, so the memory reads as empty until messages are stored again (and then holds only those), while its
 * messages stay in the log ({@link #history}) and the session stays listed in {@link #memoryIds}. For frameworks that
 * clear memories when a bean's scope closes, such as quarkus-langchain4j.
 *
 * <h2>Async</h2>
 * The {@code *Async} methods run the blocking ones on the builder's {@link Executor}: by default a virtual thread per
 * call on Java 21 and later, a shared cached pool of daemon threads on Java 17. Each runs isolated from what ran
 * before on the executor's thread ({@link ChatLog#isolated}): a list given to {@code updateMessagesAsync} is told
 * apart by the instances it holds alone, never by a read some earlier call left on a pooled thread. (So a list of
 * only new messages written after an asynchronous read of an empty memory is a blind write.)
 *
 * <h2>Cost</h2>
 * A store keeps the window it last read or wrote of its recently used memories (1,000), checked against the log's
 * last seq: a {@code getMessages} is then one query, an {@code updateMessages} that appends one statement on
 * PostgreSQL (the new messages and, when the window's record changes, a window event), whatever the history's length:
 * a turn through a full {@code MessageWindowChatMemory} appends its two messages and nothing else. A memory another
 * store instance or process wrote since is read from the log again (three to four queries, see {@link ChatLog}).
 *
 * <p>Thread-safe; one instance per store is meant to be shared by every memory.
 */
public final class SessionStoreChatMemoryStore implements ChatMemoryStore {

  /** The owner name stores use unless told otherwise. */
  public static final String DEFAULT_OWNER = "langchain4j";

  private final ChatLog<ChatMessage> log;
  private final Function<Object, String> memoryIdRule;
  private final Executor executor;
  private final boolean keepHistoryOnClear;

  private SessionStoreChatMemoryStore(Builder builder) {
    this.log = ChatLog.create(builder.store, new LangChain4jMessageCodec(), ChatLog.DEFAULT_OWNER_KEY,
        builder.owner);
    this.memoryIdRule = builder.memoryIdRule;
    this.executor = builder.executor;
    this.keepHistoryOnClear = builder.keepHistoryOnClear;
  }

  /**
   * A builder of a memory store on {@code store}.
   *
   * @throws InvalidArgumentException naming {@code store} if it is null
   */
  public static Builder builder(SessionStore store) {
    if (store == null) {
      throw new InvalidArgumentException("store", "must not be null");
    }
    return new Builder(store);
  }

  /**
   * The memory's window, oldest first; empty for an unknown memory. Each call returns a new mutable list of new
   * instances.
   *
   * @throws IllegalArgumentException if the memory id is null or maps to a null or blank session id
   */
  @Override
  public List<ChatMessage> getMessages(Object memoryId) {
    return log.window(sessionId(memoryId));
  }

  /**
   * Makes the memory's window {@code messages}, writing only what changed, atomically (see the class description).
   * The full history behind the window stays readable through {@link #history}.
   *
   * @throws IllegalArgumentException if the memory id is null or maps to a null or blank session id, or
   *                                  {@code messages} is or holds null
   */
  @Override
  public void updateMessages(Object memoryId, List<ChatMessage> messages) {
    String sessionId = sessionId(memoryId);
    if (messages == null || messages.stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException("messages must not be null nor hold null");
    }
    log.replace(sessionId, messages);
  }

  /**
   * What {@code ChatMemory.clear()} calls. By default deletes the memory's session and everything it owns, full
   * history included. With {@link Builder#keepHistoryOnClear}, empties the memory's window instead and keeps its
   * history: {@link #getMessages} returns nothing until messages are stored again, {@link #history} still returns
   * every message, and the session stays (see "Clearing" in the class description). Nothing happens for an unknown
   * memory.
   *
   * @throws IllegalArgumentException if the memory id is null or maps to a null or blank session id
   */
  @Override
  public void deleteMessages(Object memoryId) {
    String sessionId = sessionId(memoryId);
    if (keepHistoryOnClear) {
      log.clear(sessionId);
    } else {
      log.delete(sessionId);
    }
  }

  /**
   * {@link #getMessages} on the executor; the future fails with what it throws. The read is tied to the instances it
   * returns only, not to the executor's thread (see "Async" in the class description).
   */
  @Override
  public CompletableFuture<List<ChatMessage>> getMessagesAsync(Object memoryId) {
    return CompletableFuture.supplyAsync(() -> log.isolated(() -> getMessages(memoryId)), executor);
  }

  /**
   * {@link #updateMessages} on the executor; the future fails with what it throws. The list is told apart by the
   * instances it holds alone, whatever ran before on the executor's thread (see "Async" in the class description).
   */
  @Override
  public CompletableFuture<Void> updateMessagesAsync(Object memoryId, List<ChatMessage> messages) {
    return CompletableFuture.runAsync(() -> log.isolated(() -> {
      updateMessages(memoryId, messages);
      return null;
    }), executor);
  }

  /** {@link #deleteMessages} on the executor; the future fails with what it throws. */
  @Override
  public CompletableFuture<Void> deleteMessagesAsync(Object memoryId) {
    return CompletableFuture.runAsync(() -> deleteMessages(memoryId), executor);
  }

  /**
   * The memory's full history, including the messages evicted from the window and every tool request and result:
   * the messages {@code query} selects, with their events (seq, id, timestamp), for audits and UIs. Page with the
   * query's limit and the page's cursor, for example {@code EventQuery.all().last(50)} for the newest 50.
   *
   * @throws IllegalArgumentException if the memory id is null or maps to a null or blank session id
   * @throws InvalidArgumentException if {@code query} is null
   */
  public HistoryPage<ChatMessage> history(Object memoryId, EventQuery query) {
    return log.history(sessionId(memoryId), query);
  }

  /**
   * The memory's whole history, oldest first, window or not.
   *
   * @throws IllegalArgumentException if the memory id is null or maps to a null or blank session id
   */
  public List<ChatMessage> history(Object memoryId) {
    return history(memoryId, EventQuery.all()).messages();
  }

  /** The session ids of the memories stores of this owner wrote on the store, oldest first. */
  public List<String> memoryIds() {
    return log.conversationIds();
  }

  /**
   * The session id holding the memory {@code memoryId}, by the builder's rule.
   *
   * @throws IllegalArgumentException if the memory id is null or maps to a null or blank session id
   */
  public String sessionId(Object memoryId) {
    if (memoryId == null) {
      throw new IllegalArgumentException("memoryId must not be null");
    }
    String sessionId = memoryIdRule.apply(memoryId);
    if (sessionId == null || sessionId.isBlank()) {
      throw new IllegalArgumentException("memoryId " + memoryId + " maps to a null or blank session id");
    }
    return sessionId;
  }

  /** Configures a {@link SessionStoreChatMemoryStore}. Not thread-safe. */
  public static final class Builder {

    private final SessionStore store;
    private String owner = DEFAULT_OWNER;
    private Function<Object, String> memoryIdRule = String::valueOf;
    private Executor executor = AsyncExecutors.shared();
    private boolean keepHistoryOnClear;

    private Builder(SessionStore store) {
      this.store = store;
    }

    /**
     * The owner name marking the sessions this store writes, which {@link #memoryIds} lists; default
     * {@value #DEFAULT_OWNER}.
     *
     * @throws InvalidArgumentException naming {@code owner} if it is null or blank
     */
    public Builder owner(String owner) {
      if (owner == null || owner.isBlank()) {
        throw new InvalidArgumentException("owner", "must not be null or blank");
      }
      this.owner = owner;
      return this;
    }

    /**
     * How a LangChain4j memory id becomes a session id; default {@link String#valueOf}. The rule is called with
     * non-null ids only and must be a pure function.
     *
     * @throws InvalidArgumentException naming {@code memoryIdRule} if it is null
     */
    public Builder memoryIdRule(Function<Object, String> memoryIdRule) {
      if (memoryIdRule == null) {
        throw new InvalidArgumentException("memoryIdRule", "must not be null");
      }
      this.memoryIdRule = memoryIdRule;
      return this;
    }

    /**
     * Where the {@code *Async} methods run; default a virtual thread per call where the JVM has them, else a shared
     * cached pool of daemon threads.
     *
     * @throws InvalidArgumentException naming {@code executor} if it is null
     */
    public Builder executor(Executor executor) {
      if (executor == null) {
        throw new InvalidArgumentException("executor", "must not be null");
      }
      this.executor = executor;
      return this;
    }

    /**
     * Whether {@link SessionStoreChatMemoryStore#deleteMessages} (what {@code ChatMemory.clear()} calls) keeps the
     * memory's history: {@code true} empties the window and keeps every message in the log, {@code false} (the
     * default, as LangChain4j's own stores do) deletes the memory's session with its history. Use {@code true} where
     * the framework clears memories the application did not mean to end, such as quarkus-langchain4j, which calls
     * {@code deleteMessages} whenever an AI service bean's scope closes, at shutdown included (see the module README).
     */
    public Builder keepHistoryOnClear(boolean keep) {
      this.keepHistoryOnClear = keep;
      return this;
    }

    /** The memory store. */
    public SessionStoreChatMemoryStore build() {
      return new SessionStoreChatMemoryStore(this);
    }
  }
}
