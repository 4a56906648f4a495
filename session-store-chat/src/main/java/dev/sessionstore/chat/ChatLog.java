package dev.sessionstore.chat;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SeqConflictException;
import dev.sessionstore.Session;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.StoreFailureException;
import dev.sessionstore.chat.internal.IdentityTags;
import dev.sessionstore.chat.internal.StoredMessage;
import dev.sessionstore.chat.internal.StoredWindow;
import dev.sessionstore.chat.internal.Tag;
import dev.sessionstore.chat.internal.WindowDiff;
import dev.sessionstore.chat.internal.WindowPlan;
import dev.sessionstore.chat.internal.WindowState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A framework-neutral chat memory on a {@link SessionStore}: one conversation is one session, one message one event
 * (mapped by a {@link MessageCodec}), the log keeps the full history and a window of it is what the framework sees.
 * The Spring AI bridge and later bridges are thin mappings onto it.
 *
 * <h2>Writes: the diff as one step</h2>
 * {@link #replace} takes the list a framework wants the conversation to be and writes only what changed, in one
 * atomic {@link Step} committed with the expected last seq of the log as read:
 * <ul>
 *   <li>the stored window is a prefix of the list (a turn was added): only the new messages are appended, one event
 *       each, whatever the history's length;</li>
 *   <li>the list drops messages from the front of the window, or in between while keeping some (window eviction
 *       keeping a system prompt): the full history stays in the log, and a window event (type
 *       {@value #WINDOW_EVENT_TYPE}) records the new window: the seq its contiguous part starts at and the seqs of
 *       the messages kept before it;</li>
 *   <li>anything else (an edited, shortened or reordered list): the log is cut at the first stored window message
 *       the list no longer holds, after the part it still holds in order, and the rest of the list is appended, in
 *       the same step.</li>
 * </ul>
 * Stored messages are recognized by identity first: every instance {@link #window} returns (and every instance
 * {@code replace} stores) is remembered, weakly, with the event holding it; a list that hands such instances back is
 * matched exactly, duplicates of equal content included. Other instances are matched by content, their
 * {@link MessageCodec#payload} against the stored payload. A list that changes nothing writes nothing.
 *
 * <h2>Concurrency</h2>
 * Writers of one conversation never lose each other's messages and never interleave within a step. When another
 * writer committed first, the step fails on its expected seq; {@code replace} then reads the window again and
 * re-applies the same list, up to {@link #MAX_ATTEMPTS} times with short random pauses. Messages the log gained
 * after the caller read its window (the highest view among the list's remembered instances) were written by someone
 * else: they are kept, before the caller's new messages, and re-appended after them when the caller's list cuts
 * earlier history. A list holding no instance this object handed out takes the view of the calling thread's last
 * {@link #window} or {@code replace} of the conversation (the pattern of a read-modify-write memory such as Spring
 * AI's {@code MessageWindowChatMemory}); without one it is taken as having seen the whole log.
 *
 * <h2>The window rule</h2>
 * The window {@link #window} returns never starts with a tool result whose call it cut off: when eviction would
 * leave a tool result first (or pinned without the message asking for its call), the window's start moves past it.
 * The message stays in the log and in {@link #history}.
 *
 * <h2>Ownership</h2>
 * The first write of a conversation marks its session with the metadata entry {@code ownerKey = ownerValue};
 * {@link #conversationIds} lists only sessions so marked, so a store shared with other uses lists only the
 * conversations written through chat logs of the same owner.
 *
 * <p>Thread-safe. Costs: a read is two queries (the newest window event, the events from the window's start), plus
 * one per pinned message; a write adds one commit holding the new events (and a window event when the window moved).
 *
 * @param <M> the framework's message type
 */
public final class ChatLog<M> {

  /** The type of the events recording a conversation's window. */
  public static final String WINDOW_EVENT_TYPE = "chat_window";

  /** The default metadata key marking the sessions a chat log wrote. */
  public static final String DEFAULT_OWNER_KEY = "session-store.chat-memory";

  /** How many times {@link #replace} tries when other writers keep committing first. */
  public static final int MAX_ATTEMPTS = 1000;

  private static final Logger LOG = LoggerFactory.getLogger(ChatLog.class);
  private static final int LIST_PAGE = 500;

  private final SessionStore store;
  private final MessageCodec<M> codec;
  private final String ownerKey;
  private final String ownerValue;
  private final IdentityTags tags = new IdentityTags();
  /** Per thread, how far the log reached at its last read or write of a conversation (the newest 64). */
  private final ThreadLocal<Map<String, Long>> views = ThreadLocal.withInitial(() -> new LinkedHashMap<>(16, 0.75f,
      true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > 64;
    }
  });
  private final String[] messageTypes;

  private ChatLog(SessionStore store, MessageCodec<M> codec, String ownerKey, String ownerValue) {
    this.store = store;
    this.codec = codec;
    this.ownerKey = ownerKey;
    this.ownerValue = ownerValue;
    this.messageTypes = codec.eventTypes().toArray(String[]::new);
  }

  /**
   * A chat log on {@code store} mapping messages with {@code codec}, whose sessions carry the metadata entry
   * {@code ownerKey = ownerValue}.
   *
   * @throws InvalidArgumentException naming the argument if one is null or blank
   */
  public static <M> ChatLog<M> create(SessionStore store, MessageCodec<M> codec, String ownerKey,
                                      String ownerValue) {
    require("store", store);
    require("codec", codec);
    if (require("ownerKey", ownerKey).isBlank()) {
      throw new InvalidArgumentException("ownerKey", "must not be blank");
    }
    if (require("ownerValue", ownerValue).isBlank()) {
      throw new InvalidArgumentException("ownerValue", "must not be blank");
    }
    if (codec.eventTypes().contains(WINDOW_EVENT_TYPE)) {
      throw new InvalidArgumentException("codec", "writes the reserved event type " + WINDOW_EVENT_TYPE);
    }
    return new ChatLog<>(store, codec, ownerKey, ownerValue);
  }

  /** The store this chat log writes to. */
  public SessionStore store() {
    return store;
  }

  /**
   * The conversation's window, oldest first: what the framework sees. Empty for an unknown conversation. Each call
   * returns new instances, remembered for the identity matching of {@link #replace}.
   */
  public List<M> window(String conversationId) {
    StoredWindow<M> window = read(conversationId);
    views.get().put(conversationId, window.lastSeq());
    List<M> messages = new ArrayList<>();
    for (StoredMessage<M> stored : window.messages()) {
      tags.put(stored.message(), new Tag(conversationId, stored.eventId(), window.lastSeq()));
      messages.add(stored.message());
    }
    return messages;
  }

  /**
   * Makes the conversation's window equal to {@code messages}, writing only the difference as one atomic step (see
   * the class description), and creates the conversation if unknown. The full history behind the window stays.
   *
   * @throws InvalidArgumentException if an argument is null, or a message is null
   * @throws StoreFailureException    if other writers kept committing first {@link #MAX_ATTEMPTS} times, or the
   *                                  store failed
   * @throws dev.sessionstore.UnsupportedCapabilityException if the list edits history and the store cannot cut
   *                                                         a log
   */
  public void replace(String conversationId, List<M> messages) {
    require("conversationId", conversationId);
    require("messages", messages);
    List<String> ids = new ArrayList<>(messages.size());
    for (int i = 0; i < messages.size(); i++) {
      require("messages[" + i + "]", messages.get(i));
      ids.add(UUID.randomUUID().toString());
    }
    for (int attempt = 1; ; attempt++) {
      StoredWindow<M> stored = read(conversationId);
      Long view = views.get().get(conversationId);
      WindowPlan<M> plan = WindowDiff.plan(conversationId, stored, messages, ids, codec, tags::get,
          view == null ? OptionalLong.empty() : OptionalLong.of(view));
      if (plan.isEmpty()) {
        return;
      }
      try {
        commit(conversationId, stored, plan);
        return;
      } catch (SeqConflictException e) {
        if (attempt >= MAX_ATTEMPTS) {
          throw new StoreFailureException("conversation " + conversationId + ": other writers committed first "
              + attempt + " times in a row", true, e);
        }
        LOG.debug("conversation {}: another writer committed first (attempt {}), re-reading", conversationId,
            attempt);
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(Math.min(attempt, 20) * 100_000L));
      }
    }
  }

  /**
   * The conversation's full history, window or not: the message events {@code query} selects (its seq bounds, limit,
   * direction and filters apply; event types outside the codec's are never returned), each with its event. Empty
   * for an unknown conversation.
   *
   * @throws InvalidArgumentException if an argument is null
   */
  public HistoryPage<M> history(String conversationId, EventQuery query) {
    require("conversationId", conversationId);
    require("query", query);
    EventQuery messagesOnly;
    if (query.types().isEmpty()) {
      messagesOnly = query.types(messageTypes);
    } else {
      Set<String> types = new HashSet<>(query.types());
      types.retainAll(codec.eventTypes());
      if (types.isEmpty()) {
        return new HistoryPage<>(List.of(), OptionalLong.empty());
      }
      messagesOnly = query.types(types.toArray(String[]::new));
    }
    EventPage page = store.events().read(conversationId, messagesOnly);
    List<HistoryEntry<M>> entries = page.items().stream()
        .map(event -> new HistoryEntry<>(event, codec.decode(event))).toList();
    return new HistoryPage<>(entries, page.nextCursor());
  }

  /** The ids of the conversations chat logs of this owner wrote, in creation order, read page by page. */
  public List<String> conversationIds() {
    List<String> ids = new ArrayList<>();
    SessionQuery query = SessionQuery.all().metadata(ownerKey, ownerValue).limit(LIST_PAGE);
    while (true) {
      SessionPage page = store.sessions().list(query);
      page.items().stream().map(Session::id).forEach(ids::add);
      if (page.nextCursor().isEmpty()) {
        return ids;
      }
      query = query.after(page.nextCursor().get());
    }
  }

  /**
   * Deletes the conversation's session and everything it owns (events, runs, tool calls, summaries, checkpoints).
   * Idempotent.
   *
   * @return whether a conversation was deleted
   */
  public boolean delete(String conversationId) {
    require("conversationId", conversationId);
    return store.sessions().delete(conversationId);
  }

  private StoredWindow<M> read(String conversationId) {
    List<Event> markers = store.events()
        .read(conversationId, EventQuery.all().types(WINDOW_EVENT_TYPE).newestFirst().limit(1)).items();
    WindowState state = markers.isEmpty() ? WindowState.WHOLE_LOG : WindowState.fromJson(markers.get(0).payload());
    List<Event> events = store.events().read(conversationId, EventQuery.all().after(state.start() - 1)).items();
    long lastSeq = events.isEmpty() ? (markers.isEmpty() ? 0 : markers.get(0).seq()) : events.get(events.size() - 1)
        .seq();
    if (events.isEmpty() && markers.isEmpty()) {
      lastSeq = store.events().lastSeq(conversationId);
    }
    List<StoredMessage<M>> tail = new ArrayList<>();
    for (Event event : events) {
      if (codec.eventTypes().contains(event.type())) {
        tail.add(stored(event));
      }
    }
    List<StoredMessage<M>> pinned = new ArrayList<>();
    for (long seq : state.pinned()) {
      List<Event> found = store.events().read(conversationId, EventQuery.all().after(seq - 1).first(1)).items();
      if (!found.isEmpty() && found.get(0).seq() == seq && codec.eventTypes().contains(found.get(0).type())) {
        pinned.add(stored(found.get(0)));
      }
    }
    return new StoredWindow<>(state, pinned, tail, lastSeq);
  }

  private StoredMessage<M> stored(Event event) {
    return new StoredMessage<>(event.seq(), event.id(), event.type(), event.payload(), codec.decode(event));
  }

  private void commit(String conversationId, StoredWindow<M> stored, WindowPlan<M> plan) {
    Step.Builder step = Step.builder(conversationId).expectLastSeq(stored.lastSeq());
    if (stored.lastSeq() == 0) {
      step.session(SessionWrite.of(conversationId).withMetadata(ownerKey, ownerValue));
    }
    plan.cutFrom().ifPresent(step::truncateFrom);
    for (WindowPlan.Append<M> append : plan.appended()) {
      step.event(new NewEvent(append.eventId(), append.type(), null, null, null, append.payload(), null));
    }
    plan.window().ifPresent(window -> step.event(NewEvent.of(WINDOW_EVENT_TYPE, window.toJson())));
    long view = store.commit(step.build()).orElseThrow().lastSeq();
    views.get().put(conversationId, view);
    for (WindowPlan.Append<M> append : plan.appended()) {
      if (append.listIndex() >= 0) {
        tags.put(append.message(), new Tag(conversationId, append.eventId(), view));
      }
    }
  }

  private static <T> T require(String field, T value) {
    if (value == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    return value;
  }
}
