package dev.sessionstore.springai;

import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SessionStore;
import dev.sessionstore.chat.ChatLog;
import dev.sessionstore.chat.HistoryPage;
import dev.sessionstore.springai.internal.BridgeLine;
import dev.sessionstore.springai.internal.SpringAiMessageCodec;
import java.util.List;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.Message;

/**
 * Spring AI's {@link ChatMemoryRepository} on any {@link SessionStore}: one conversation is one session, one message
 * one event, the log keeps the full history, and {@link #findByConversationId} returns the window the framework
 * last saved. Writes are O(new messages) whatever the history's length, atomic, and safe under concurrent writers.
 *
 * <pre>{@code
 * ChatMemoryRepository repository = SessionStoreChatMemoryRepository.builder(store).build();
 * ChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(20).build();
 * }</pre>
 *
 * <h2>Messages</h2>
 * Every message type round-trips: {@code findByConversationId} returns messages equal (by their own
 * {@code equals}) to the ones saved, with what {@code equals} ignores kept as well: user and assistant media (MIME
 * type, id, name and the data, a URI string or bytes), assistant tool calls, tool responses, and metadata values
 * with their Java types ({@code String}, boxed primitives, {@code BigInteger}, {@code BigDecimal}, {@code Instant},
 * {@code UUID}, {@code URI}, {@code byte[]}, enums, and lists and string-keyed maps of those; other objects come back
 * as plain JSON maps, lists, strings, numbers and booleans). {@code Media} has no {@code equals}, so an assistant
 * message with media is equal to its stored copy field by field, not by {@code equals}.
 *
 * <h2>saveAll</h2>
 * Replaces the conversation's window as Spring AI documents, writing one step with the expected last seq:
 * appending the new messages when the stored window is a prefix of the list; when the list drops the oldest messages
 * (window eviction, system messages kept in place), the evicted ones stay in the log and the window's record changes
 * only if it must (a full window that evicts one message per add writes its message alone); cutting the log where the
 * list first differs and appending the rest otherwise. Stored messages are recognized
 * by identity first (the instances {@code findByConversationId} returned), then by content. See {@link ChatLog}.
 *
 * <h2>Concurrency</h2>
 * Concurrent {@code saveAll} calls on one conversation (say two requests through one {@code MessageWindowChatMemory})
 * never lose or interleave messages: a step that loses the race re-reads the window and re-applies its list, keeping
 * what the other writer added.
 *
 * <h2>Cost</h2>
 * A repository keeps the window it last read or wrote of its recently used conversations (1,000), checked against
 * the log's last seq: a {@code findByConversationId} is then one query, a {@code saveAll} that appends one statement
 * on PostgreSQL (the new messages and, when the window's record changes, a window event), whatever the history's
 * length. A conversation another repository instance or process wrote since is read from the log again (three to four
 * queries, see {@link ChatLog}).
 *
 * <h2>What is saved comes back</h2>
 * {@code findByConversationId} returns the list {@code saveAll} last saved, message for message, whatever it holds or
 * starts with (a {@code ToolResponseMessage} included), as Spring AI's own repositories do; so
 * {@code MessageWindowChatMemory} keeps the same window over this repository as over Spring AI's in-memory one. What
 * a window may start with is the memory's choice, made where it cuts the window, not the repository's.
 *
 * <h2>Listing and deleting</h2>
 * {@link #findConversationIds} lists the conversations written by repositories of the same owner name on the store
 * (a session metadata entry), not every session of a shared store. {@link #deleteByConversationId} deletes the
 * session and everything it owns.
 *
 * <p>Thread-safe; one instance per store is meant to be shared.
 */
public final class SessionStoreChatMemoryRepository implements ChatMemoryRepository {

  /** The owner name repositories use unless told otherwise. */
  public static final String DEFAULT_OWNER = "spring-ai";

  private final ChatLog<Message> log;

  private SessionStoreChatMemoryRepository(ChatLog<Message> log) {
    this.log = log;
  }

  /** A builder of a repository on {@code store}. */
  public static Builder builder(SessionStore store) {
    if (store == null) {
      throw new InvalidArgumentException("store", "must not be null");
    }
    return new Builder(store);
  }

  /** The ids of the conversations repositories of this owner wrote on the store, oldest first. */
  @Override
  public List<String> findConversationIds() {
    return log.conversationIds();
  }

  /**
   * The conversation's window, oldest first, exactly as last saved; empty for an unknown conversation.
   *
   * @throws IllegalArgumentException "conversationId cannot be null or empty" if the id is null or blank
   */
  @Override
  public List<Message> findByConversationId(String conversationId) {
    return log.window(requireId(conversationId));
  }

  /**
   * Makes the conversation's window {@code messages}, writing only what changed, atomically (see the class
   * description). The full history behind the window stays readable through {@link #history}.
   *
   * @throws IllegalArgumentException with Spring AI's wording, checked in its order: "conversationId cannot be null or
   *                                  empty" if the id is null or blank, "messages cannot be null", "messages cannot
   *                                  contain null elements"
   */
  @Override
  public void saveAll(String conversationId, List<Message> messages) {
    String id = requireId(conversationId);
    if (messages == null) {
      throw new IllegalArgumentException("messages cannot be null");
    }
    if (messages.stream().anyMatch(java.util.Objects::isNull)) {
      throw new IllegalArgumentException("messages cannot contain null elements");
    }
    log.replace(id, messages);
  }

  /**
   * Deletes the conversation's session and everything it owns; nothing happens for an unknown conversation.
   *
   * @throws IllegalArgumentException "conversationId cannot be null or empty" if the id is null or blank
   */
  @Override
  public void deleteByConversationId(String conversationId) {
    log.delete(requireId(conversationId));
  }

  /**
   * The conversation's full history, including the messages evicted from the window and every tool call and
   * response: the messages {@code query} selects, with their events (seq, id, timestamp), for audits and UIs. Page
   * with the query's limit and the page's cursor, for example {@code EventQuery.all().last(50)} for the newest 50.
   *
   * @throws IllegalArgumentException "conversationId cannot be null or empty" if the id is null or blank
   * @throws InvalidArgumentException if {@code query} is null
   */
  public HistoryPage<Message> history(String conversationId, EventQuery query) {
    return log.history(requireId(conversationId), query);
  }

  /** The whole history of the conversation, oldest first. */
  public List<Message> history(String conversationId) {
    return history(conversationId, EventQuery.all()).messages();
  }

  /** The id, checked as Spring AI's repositories check it ({@code Assert.hasText}), with their message. */
  private static String requireId(String conversationId) {
    if (conversationId == null || conversationId.isBlank()) {
      throw new IllegalArgumentException("conversationId cannot be null or empty");
    }
    return conversationId;
  }

  /** Configures a {@link SessionStoreChatMemoryRepository}. Not thread-safe. */
  public static final class Builder {

    private final SessionStore store;
    private String owner = DEFAULT_OWNER;

    private Builder(SessionStore store) {
      this.store = store;
    }

    /**
     * The owner name marking the conversations this repository writes, which {@link #findConversationIds} lists;
     * default {@value #DEFAULT_OWNER}. Repositories with different owners on one store list different conversations.
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
     * The repository.
     *
     * @throws dev.sessionstore.StoreFailureException (not retryable) when both bridge jars are on the class path,
     *                                                or this one is built for the other Spring AI line: the message
     *                                                names which artifact to keep for which line
     */
    public SessionStoreChatMemoryRepository build() {
      BridgeLine.check();
      return new SessionStoreChatMemoryRepository(
          ChatLog.create(store, new SpringAiMessageCodec(), ChatLog.DEFAULT_OWNER_KEY, owner));
    }
  }
}
