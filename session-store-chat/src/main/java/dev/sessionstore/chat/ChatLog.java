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
import dev.sessionstore.chat.internal.Intent;
import dev.sessionstore.chat.internal.Snapshot;
import dev.sessionstore.chat.internal.StoredMessage;
import dev.sessionstore.chat.internal.StoredWindow;
import dev.sessionstore.chat.internal.Tag;
import dev.sessionstore.chat.internal.WindowCache;
import dev.sessionstore.chat.internal.WindowDiff;
import dev.sessionstore.chat.internal.WindowPlan;
import dev.sessionstore.chat.internal.WindowState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A framework-neutral chat memory on a {@link SessionStore}: one conversation is one session, one message one event
 * (mapped by a {@link MessageCodec}), the log keeps the full history and a window of it is what the framework sees.
 * The Spring AI bridge and later bridges are thin mappings onto it.
 *
 * <h2>Reads hand out snapshots</h2>
 * {@link #window} returns new message instances, all remembered (weakly, by identity) with one shared snapshot of
 * that read: the events of the window it returned, in order, and how far the log reached. A write remembers the
 * instances of the list it stored the same way, with a snapshot of that list as stored.
 *
 * <h2>Writes: what a list means</h2>
 * {@link #replace} takes the list a framework wants the window to be and writes only what changed, as one atomic
 * {@link Step} committed with the expected last seq of the log as read. What the list asks depends on where it comes
 * from:
 * <ol>
 *   <li><b>A list built from this chat log's own read</b> (it holds instances a read or write handed out; the newest
 *       such snapshot is the reference) states the caller's intent relative to the window that snapshot saw. Its
 *       longest prefix of seen messages, each once and in the order seen, is kept; the rest of the list is new and is
 *       appended, one event each, whatever the history's length. Seen messages the list drops from the front or in
 *       between (window eviction, a system prompt kept in place) are <em>evicted</em>: they leave the window and stay
 *       in the log (see "How the window is recorded"). Seen messages dropped after the last kept one, or moved
 *       behind new ones (an edit, a reorder), are <em>removed</em>: the log is cut at the first of them and the rest
 *       is appended, in the same step. A list that keeps nothing it saw but adds messages, or keeps only its
 *       pinned messages (a system prompt, {@link MessageCodec#isPinned}), evicts all the rest it saw: so a small
 *       window that keeps its system prompt and moves past everything else never cuts the history. A
 *       list that changes nothing writes nothing. When the list holds no instance of this chat log (a read that
 *       returned an empty window hands out none), the calling thread's last read of the conversation not yet followed
 *       by a write is the reference: the read-modify-write pattern of a memory such as Spring AI's
 *       {@code MessageWindowChatMemory}.</li>
 *   <li><b>A blind list</b> (nothing in it came from this chat log and the calling thread has no pending read of the
 *       conversation) replaces the window as it is now, matched by content ({@link MessageCodec#payload}): the longest
 *       prefix of the list that the window holds in order, ending at its last message, is kept (the rest of the
 *       window is evicted), else the longest common prefix is kept and the rest of the window removed, by the rules
 *       above. Two blind lists are never mixed: the last writer's list is the window.</li>
 * </ol>
 *
 * <h2>How the window is recorded</h2>
 * A window event (type {@value #WINDOW_EVENT_TYPE}; the newest is in force, none means the whole log) records the
 * window as its pinned messages (seqs kept before its contiguous part, such as a system prompt) and its tail: either
 * every message from a seq on (a window that grows) or the newest k messages from a seq on (a window that slides).
 * A write records a new one only when the window it leaves is not what the one in force already selects, in the
 * newest-k shape when it evicted as many messages as it appended and in the from-a-seq shape otherwise. So an add to
 * a window that is not full yet, and an add that evicts one message from a full one (a window sliding by one, once
 * the first such add recorded k), write their messages and nothing else. A window that changes size as it evicts (a
 * memory evicting whole turns: every other add), grows again or shrinks, a change of the pinned messages, a cut and
 * {@link #clear} write one. A message event appended to the log behind this chat log's back joins the window as the
 * record in force says: at its end, the oldest message of a newest-k tail leaving it.
 *
 * <h2>The window cache</h2>
 * A chat log keeps the window it last read or wrote of each of its most recently used conversations (1,000 by
 * default, see {@link #create(SessionStore, MessageCodec, String, String, int)}), with the last seq the log ended at.
 * {@link #window} reads only the log's last seq and uses the kept window when the log still ends there; otherwise
 * (another process or chat log wrote, the conversation is new to this one) it reads the window from the log. A write
 * is first tried against the kept window, with its last seq as the expected seq, so a turn of a read-modify-write
 * memory costs one read of the last seq and one append. The kept windows are hints: every write is checked by its
 * expected seq, and a read by the last seq, so a stale one costs a re-read, never a wrong result (but see the limit
 * under concurrency). Instances handed out are always new ones, decoded from the stored events.
 *
 * <h2>Concurrency</h2>
 * The intent of a list built from a read is fixed before the first attempt and names only messages its caller was
 * handed. When another writer committed first, the step fails on its expected seq, and {@code replace} reads the
 * window again and re-applies the same intent on top of it, up to {@link #MAX_ATTEMPTS} times with short random
 * pauses. So messages other writers wrote after the caller's read are always kept (a cut appends them again after
 * the kept part, with fresh ids), a message another writer evicted or removed stays so, and each writer's new
 * messages are appended together, in its own order, after what others wrote. No message is lost or interleaved.
 * (The expected seq is the log's last seq: a concurrent edit by another process or chat log that cuts and appends
 * back to exactly the same last seq between a read and a commit is not detected, nor, for the same reason, by a read
 * served from the window cache. This chat log's own cuts and deletes drop the conversation's kept window.)
 *
 * <h2>A window is what was written</h2>
 * {@link #window} returns the list {@link #replace} last made the window, message for message (with what other
 * writers appended since, by the rules above): no message is left out for its kind. A tool result whose call the list
 * evicted stays, as the list has it; what a window may start with is the framework memory's choice, made where it
 * cuts the window (LangChain4j's {@code MessageWindowChatMemory} evicts such results with their call), so a memory
 * keeps the same window over a chat log as over its framework's in-memory store.
 *
 * <h2>Ownership</h2>
 * The first write of a conversation marks its session with the metadata entry {@code ownerKey = ownerValue};
 * {@link #conversationIds} lists only sessions so marked, so a store shared with other uses lists only the
 * conversations written through chat logs of the same owner.
 *
 * <p>Thread-safe. Costs, none growing with the history behind the window: a read is one query of the log's last seq
 * when the kept window is current, else a read of the window from the log: the last seq, the newest window event,
 * the log newest first down to the window's tail (one query unless events of other types or more than two window
 * events lie among the tail's messages), the newest window event again when the tail did not reach it, and one query
 * per pinned message. A write that appends (new messages, a window event only when the window's record changes, see
 * above) is one {@link dev.sessionstore.EventLog#appendAll} with the expected last seq (on PostgreSQL one
 * statement); the first write of a conversation and a cut are one {@link Step}; a write reads the window first only
 * when this chat log keeps none for the conversation or another writer committed since. {@code TurnCostTest} of the
 * Spring AI and LangChain4j bridges counts a turn's statements and rows on PostgreSQL: the same at 30, 300 and 3,000
 * messages; the LangChain4j bridge's {@code WindowRecordTest} counts the window events each kind of write appends and
 * the statements of a read from the log.
 *
 * @param <M> the framework's message type
 */
public final class ChatLog<M> {

  /** The type of the events recording a conversation's window. */
  public static final String WINDOW_EVENT_TYPE = "chat_window";

  /** The default metadata key marking the sessions a chat log wrote. */
  public static final String DEFAULT_OWNER_KEY = "session-store.chat-memory";

  /** How many conversations' windows a chat log keeps in memory unless told otherwise. */
  public static final int DEFAULT_CACHED_CONVERSATIONS = 1000;

  /** How many times {@link #replace} tries when other writers keep committing first. */
  public static final int MAX_ATTEMPTS = 1000;

  private static final Logger LOG = LoggerFactory.getLogger(ChatLog.class);
  private static final int LIST_PAGE = 500;
  /** Events a read of a sliding window's tail asks for beyond its messages, for window events among them. */
  private static final int TAIL_PAGE_MARGIN = 2;

  private final SessionStore store;
  private final MessageCodec<M> codec;
  private final String ownerKey;
  private final String ownerValue;
  private final IdentityTags tags = new IdentityTags();
  private final AtomicLong snapshots = new AtomicLong();
  /** Per thread, its last read of each conversation not yet followed by a write (the newest 64). */
  private final ThreadLocal<Map<String, Snapshot>> reads = ThreadLocal.withInitial(() -> new LinkedHashMap<>(16,
      0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Snapshot> eldest) {
      return size() > 64;
    }
  });
  private final WindowCache<M> windows;
  private final String[] messageTypes;

  private ChatLog(SessionStore store, MessageCodec<M> codec, String ownerKey, String ownerValue,
                  int cachedConversations) {
    this.store = store;
    this.codec = codec;
    this.ownerKey = ownerKey;
    this.ownerValue = ownerValue;
    this.windows = new WindowCache<>(cachedConversations);
    this.messageTypes = codec.eventTypes().toArray(String[]::new);
  }

  /**
   * A chat log on {@code store} mapping messages with {@code codec}, whose sessions carry the metadata entry
   * {@code ownerKey = ownerValue}, keeping the windows of the last {@value #DEFAULT_CACHED_CONVERSATIONS}
   * conversations it used.
   *
   * @throws InvalidArgumentException naming the argument if one is null or blank
   */
  public static <M> ChatLog<M> create(SessionStore store, MessageCodec<M> codec, String ownerKey,
                                      String ownerValue) {
    return create(store, codec, ownerKey, ownerValue, DEFAULT_CACHED_CONVERSATIONS);
  }

  /**
   * A chat log on {@code store} mapping messages with {@code codec}, whose sessions carry the metadata entry
   * {@code ownerKey = ownerValue}, keeping the windows of the {@code cachedConversations} conversations it used last
   * (0 keeps none: every read and write reads the window from the log; see "Costs" in the class description).
   *
   * @throws InvalidArgumentException naming the argument if one is null or blank, or {@code cachedConversations} is
   *                                  negative
   */
  public static <M> ChatLog<M> create(SessionStore store, MessageCodec<M> codec, String ownerKey,
                                      String ownerValue, int cachedConversations) {
    if (cachedConversations < 0) {
      throw new InvalidArgumentException("cachedConversations", "must not be negative, was " + cachedConversations);
    }
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
    return new ChatLog<>(store, codec, ownerKey, ownerValue, cachedConversations);
  }

  /** The store this chat log writes to. */
  public SessionStore store() {
    return store;
  }

  /**
   * The conversation's window, oldest first: what the framework sees. Empty for an unknown conversation. Each call
   * returns new instances, remembered with one snapshot of this read for {@link #replace}; the read is also the
   * calling thread's pending read of the conversation until its next {@code replace} of it. One query (the log's last
   * seq) when the window cache holds the conversation's current window, else a read of the window from the log.
   */
  public List<M> window(String conversationId) {
    require("conversationId", conversationId);
    long stamp = windows.stamp();
    long lastSeq = store.events().lastSeq(conversationId);
    Optional<StoredWindow<M>> cached = windows.get(conversationId).filter(known -> known.lastSeq() == lastSeq);
    StoredWindow<M> window;
    if (cached.isPresent()) {
      window = cached.get();
    } else {
      window = lastSeq == 0 ? StoredWindow.empty() : read(conversationId);
      windows.offer(conversationId, window, stamp);
    }
    List<StoredMessage<M>> stored = window.messages();
    Snapshot snapshot = new Snapshot(conversationId, stored.stream().map(StoredMessage::eventId).toList(),
        window.lastSeq(), snapshots.incrementAndGet());
    reads.get().put(conversationId, snapshot);
    // new instances every time: the cached ones are the diff's, and a caller may change what it was handed
    List<M> messages = new ArrayList<>(codec.decodeAll(stored.stream().map(StoredMessage::event).toList()));
    for (int i = 0; i < messages.size(); i++) {
      tags.put(messages.get(i), new Tag(snapshot, stored.get(i).eventId()));
    }
    return messages;
  }

  /**
   * Makes the conversation's window {@code messages} as the class description defines it (relative to the snapshot
   * the list came from, or replacing the window for a blind list), writing only the difference as one atomic step,
   * and creates the conversation if unknown. The full history behind the window stays, except what an edit removes.
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
    for (int i = 0; i < messages.size(); i++) {
      require("messages[" + i + "]", messages.get(i));
    }
    // an id per added message only, made when first asked for and the same in every attempt
    String[] addedIds = new String[messages.size()];
    IntFunction<String> ids = index -> {
      if (addedIds[index] == null) {
        addedIds[index] = UUID.randomUUID().toString();
      }
      return addedIds[index];
    };
    Optional<Snapshot> pendingRead = Optional.ofNullable(reads.get().remove(conversationId));
    Optional<Intent<M>> relative = WindowDiff.intent(conversationId, messages, tags::get, pendingRead,
        codec::isPinned);
    for (int attempt = 1; ; attempt++) {
      // The cached window is exact unless another writer committed since, which the expected seq detects.
      long stamp = windows.stamp();
      Optional<StoredWindow<M>> cached = attempt == 1 ? windows.get(conversationId) : Optional.empty();
      StoredWindow<M> stored = cached.orElseGet(() -> read(conversationId));
      if (cached.isEmpty()) {
        windows.offer(conversationId, stored, stamp);
      }
      Intent<M> intent = relative.orElseGet(() -> WindowDiff.blind(messages, stored, codec));
      WindowPlan<M> plan = WindowDiff.plan(intent, stored, ids, () -> UUID.randomUUID().toString(), codec);
      if (plan.isEmpty() && cached.isPresent() && store.events().lastSeq(conversationId) != stored.lastSeq()) {
        continue; // nothing to write against a window that is no longer the log's: decide on the log's
      }
      try {
        long view = plan.isEmpty() ? stored.lastSeq() : commit(conversationId, stored, plan, stamp);
        remember(conversationId, messages, intent, ids, view);
        return;
      } catch (SeqConflictException e) {
        pauseBeforeRetry(conversationId, attempt, e);
      }
    }
  }

  /**
   * Empties the conversation's window and keeps its whole history: appends a window event after which the window
   * starts, so {@link #window} returns nothing until messages are written again (then only those), while
   * {@link #history} still returns every message and the session stays. Messages another writer commits before this
   * call are cleared with the rest; those committed after it are the new window. Nothing happens for an unknown
   * conversation (no session is created), nor for one whose window is already empty.
   *
   * @return whether the conversation exists
   * @throws InvalidArgumentException if the id is null
   * @throws StoreFailureException    if other writers kept committing first {@link #MAX_ATTEMPTS} times, or the
   *                                  store failed
   */
  public boolean clear(String conversationId) {
    require("conversationId", conversationId);
    reads.get().remove(conversationId);
    for (int attempt = 1; ; attempt++) {
      long stamp = windows.stamp();
      Optional<StoredWindow<M>> cached = attempt == 1 ? windows.get(conversationId) : Optional.empty();
      StoredWindow<M> stored = cached.orElseGet(() -> read(conversationId));
      if (cached.isPresent() && store.events().lastSeq(conversationId) != stored.lastSeq()) {
        continue; // decide on the log, not on a window another writer has moved since
      }
      if (cached.isEmpty()) {
        windows.offer(conversationId, stored, stamp);
      }
      if (stored.lastSeq() == 0 || stored.messages().isEmpty()) {
        return stored.lastSeq() > 0;
      }
      WindowPlan<M> plan = new WindowPlan<>(OptionalLong.empty(), List.of(),
          Optional.of(WindowState.growing(stored.lastSeq() + 1, List.of())));
      try {
        commit(conversationId, stored, plan, stamp);
        return true;
      } catch (SeqConflictException e) {
        pauseBeforeRetry(conversationId, attempt, e);
      }
    }
  }

  /** A short random pause after another writer committed first, or the failure once {@link #MAX_ATTEMPTS} is hit. */
  private static void pauseBeforeRetry(String conversationId, int attempt, SeqConflictException conflict) {
    if (attempt >= MAX_ATTEMPTS) {
      throw new StoreFailureException("conversation " + conversationId + ": other writers committed first "
          + attempt + " times in a row", true, conflict);
    }
    LOG.debug("conversation {}: another writer committed first (attempt {}), re-reading", conversationId, attempt);
    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(Math.min(attempt, 20) * 100_000L));
  }

  /**
   * Runs {@code call} with the calling thread's pending reads set aside and gives them back after: a read inside is
   * not pending for later calls on this thread, and a write inside sees no pending read from earlier ones, so it is
   * told apart by the instances its list holds alone. For calls that run on a pooled thread on behalf of a caller
   * (asynchronous methods): a read and the write built from it usually run on different threads there, and a read
   * left pending on a pool thread would make a later, unrelated write of the same conversation on that thread relative
   * to it rather than blind.
   *
   * @throws InvalidArgumentException if {@code call} is null
   */
  public <T> T isolated(Supplier<T> call) {
    require("call", call);
    Map<String, Snapshot> outer = reads.get();
    reads.remove();
    try {
      return call.get();
    } finally {
      reads.set(outer);
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
    List<HistoryEntry<M>> entries = stored(page.items()).stream()
        .map(message -> new HistoryEntry<>(message.event(), message.message())).toList();
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
    try {
      return store.sessions().delete(conversationId);
    } finally {
      windows.forget(conversationId);
    }
  }

  /**
   * The window in one consistent view of the log, reading no further back than the window's tail: the newest window
   * event, then the log newest first down to the tail's start or until the tail is complete, then (when that did not
   * reach the window event) the newest window event again. A window event other than the first one read, among the
   * events read or newest at the end, means another writer moved the window meanwhile (or cut the log): the read
   * starts over.
   */
  private StoredWindow<M> read(String conversationId) {
    EventQuery newestMarker = EventQuery.all().types(WINDOW_EVENT_TYPE).newestFirst().limit(1);
    while (true) {
      List<Event> markers = store.events().read(conversationId, newestMarker).items();
      Event marker = markers.isEmpty() ? null : markers.get(0);
      WindowState state = marker == null ? WindowState.WHOLE_LOG : WindowState.fromJson(marker.payload());
      int wanted = state.size().orElse(Integer.MAX_VALUE);
      EventQuery query = EventQuery.all().after(state.start() - 1).newestFirst();
      if (state.size().isPresent()) {
        query = query.limit(wanted + TAIL_PAGE_MARGIN);
      }
      List<Event> newestFirst = new ArrayList<>();
      long lastSeq = 0;
      boolean markerSeen = marker == null;
      boolean moved = false;
      while (true) {
        List<Event> page = store.events().read(conversationId, query).items();
        if (lastSeq == 0 && !page.isEmpty()) {
          lastSeq = page.get(0).seq();
        }
        for (Event event : page) {
          if (WINDOW_EVENT_TYPE.equals(event.type())) {
            boolean same = marker != null && marker.id().equals(event.id());
            markerSeen |= same;
            moved |= !same && (marker == null || event.seq() >= marker.seq());
          } else if (newestFirst.size() < wanted && codec.eventTypes().contains(event.type())) {
            newestFirst.add(event);
          }
        }
        if (moved || newestFirst.size() >= wanted || query.limit().isEmpty()
            || page.size() < query.limit().getAsInt()) {
          break;
        }
        query = query.before(page.get(page.size() - 1).seq());
      }
      if (moved || !markerSeen && !sameEvent(store.events().read(conversationId, newestMarker).items(), marker)) {
        continue;
      }
      List<Event> tail = new ArrayList<>(newestFirst);
      Collections.reverse(tail);
      List<Event> pinned = new ArrayList<>();
      for (long seq : state.pinned()) {
        List<Event> found = store.events().read(conversationId, EventQuery.all().after(seq - 1).first(1)).items();
        if (!found.isEmpty() && found.get(0).seq() == seq && codec.eventTypes().contains(found.get(0).type())) {
          pinned.add(found.get(0));
        }
      }
      return new StoredWindow<>(state, stored(pinned), stored(tail), lastSeq);
    }
  }

  /** Whether {@code found} is exactly {@code event}, by id. */
  private static boolean sameEvent(List<Event> found, Event event) {
    return found.size() == 1 && found.get(0).id().equals(event.id());
  }

  /** The events with their messages, decoded in one call. */
  private List<StoredMessage<M>> stored(List<Event> events) {
    List<M> messages = codec.decodeAll(events);
    List<StoredMessage<M>> stored = new ArrayList<>(events.size());
    for (int i = 0; i < events.size(); i++) {
      stored.add(new StoredMessage<>(events.get(i), messages.get(i)));
    }
    return stored;
  }

  /**
   * Commits {@code plan} against the log as {@code stored} read it and keeps the window it leaves in the cache;
   * returns the log's last seq after it. A plan that only appends to an existing log is one {@code appendAll} with
   * the expected last seq (one statement on PostgreSQL); the first write (which marks the session as this owner's)
   * and a cut are one {@link Step}.
   *
   * @param stamp the cache stamp taken before {@code stored} was read or taken from the cache
   */
  private long commit(String conversationId, StoredWindow<M> stored, WindowPlan<M> plan, long stamp) {
    List<NewEvent> events = new ArrayList<>(plan.appended().size() + 1);
    for (WindowPlan.Append<M> append : plan.appended()) {
      events.add(new NewEvent(append.eventId(), append.type(), null, null, null, append.payload(), null));
    }
    plan.window().ifPresent(window -> events.add(NewEvent.of(WINDOW_EVENT_TYPE, window.toJson())));
    List<Event> written;
    if (stored.lastSeq() > 0 && plan.cutFrom().isEmpty()) {
      written = store.events().appendAll(conversationId, events, stored.lastSeq());
    } else {
      Step.Builder step = Step.builder(conversationId).expectLastSeq(stored.lastSeq()).events(events);
      if (stored.lastSeq() == 0) {
        step.session(SessionWrite.of(conversationId).withMetadata(ownerKey, ownerValue));
      }
      plan.cutFrom().ifPresent(step::truncateFrom);
      try {
        written = store.commit(step.build()).orElseThrow().events();
      } finally {
        if (plan.cutFrom().isPresent()) {
          // a cut may leave the log at a last seq it had before, with other content (also when its outcome is
          // unknown): no view read before it may come back
          windows.forget(conversationId);
        }
      }
    }
    long lastSeq = written.get(written.size() - 1).seq();
    if (plan.cutFrom().isEmpty()) {
      windows.offer(conversationId, after(stored, plan, written, lastSeq), stamp);
    }
    return lastSeq;
  }

  /** The window an append-only {@code plan} leaves: the stored one with the written events, by the new state. */
  private StoredWindow<M> after(StoredWindow<M> stored, WindowPlan<M> plan, List<Event> written, long lastSeq) {
    Map<String, M> instances = new HashMap<>();
    plan.appended().forEach(append -> instances.put(append.eventId(), append.message()));
    List<StoredMessage<M>> known = new ArrayList<>(stored.messages());
    for (Event event : written) {
      if (instances.containsKey(event.id())) {
        known.add(new StoredMessage<>(event, instances.get(event.id())));
      }
    }
    WindowState state = plan.window().orElse(stored.state());
    List<StoredMessage<M>> pinned = known.stream().filter(message -> state.pinned().contains(message.seq()))
        .toList();
    List<StoredMessage<M>> tail = state.tail(known, StoredMessage::seq);
    return new StoredWindow<>(state, pinned, tail, lastSeq);
  }

  /**
   * Remembers the instances of a list just written with one snapshot of that list as stored: the kept messages'
   * events, then the added ones'.
   */
  private void remember(String conversationId, List<M> messages, Intent<M> intent, IntFunction<String> ids,
                        long view) {
    List<String> eventIds = new ArrayList<>(intent.kept());
    intent.added().forEach(added -> eventIds.add(ids.apply(added.listIndex())));
    Snapshot snapshot = new Snapshot(conversationId, eventIds, view, snapshots.incrementAndGet());
    for (int i = 0; i < messages.size(); i++) {
      tags.put(messages.get(i), new Tag(snapshot, eventIds.get(i)));
    }
  }

  private static <T> T require(String field, T value) {
    if (value == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    return value;
  }
}
