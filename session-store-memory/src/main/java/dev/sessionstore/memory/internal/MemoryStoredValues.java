package dev.sessionstore.memory.internal;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.Json;
import dev.sessionstore.ModelCall;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.StoredValue;
import dev.sessionstore.spi.StoredValueCursor;
import dev.sessionstore.spi.StoredValueKind;
import dev.sessionstore.spi.StoredValuePage;
import dev.sessionstore.spi.StoredValueRef;
import dev.sessionstore.spi.StoredValues;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The stored values of an in-memory store ({@link StoredValues}). A scan walks kinds, then sessions by id, then keys
 * ({@link StoredValueCursor#ORDER}), reading each session's values under its lock; a page starts over from the
 * cursor's ref, so it costs a walk of every session (under its lock, one at a time) and of the values of the
 * sessions it touches. A rewrite compares and replaces under the session's lock (the storage's monitor for events,
 * the map's for global checkpoints). Events a fork shares with its parent live in one storage, scanned once: under
 * the session whose own storage it is, or, once that session moved to a copy (a cut, a truncation) or was deleted,
 * under the session with the smallest id among those that still share it.
 */
final class MemoryStoredValues implements StoredValues {

  private final StoreContext context;
  private final SessionRegistry registry;
  private final MemoryCheckpoints checkpoints;

  MemoryStoredValues(StoreContext context, SessionRegistry registry, MemoryCheckpoints checkpoints) {
    this.context = context;
    this.registry = registry;
    this.checkpoints = checkpoints;
  }

  @Override
  public StoredValuePage scan(Optional<String> cursor, int limit) {
    Optional<StoredValueRef> after = StoredValueCursor.parse(cursor);
    Arguments.requirePositive("limit", limit);
    context.checkOpen();
    List<StoredValue> page = new ArrayList<>();
    TreeSet<String> sessionIds = new TreeSet<>();
    registry.all().forEach(state -> sessionIds.add(state.id));
    Map<EventStorage, String> holders = holders(sessionIds);
    for (StoredValueKind kind : StoredValueKind.values()) {
      if (after.isPresent() && kind.compareTo(after.get().kind()) < 0) {
        continue;
      }
      if (kind == StoredValueKind.GLOBAL_CHECKPOINT_DATA) {
        addAfter(page, after, checkpoints.globalMap().values().stream()
            .map(checkpoint -> StoredValue.of(new StoredValueRef(kind, null, checkpoint.key().name()),
                checkpoint.data())).toList());
      } else {
        String from = after.isPresent() && after.get().kind() == kind ? after.get().sessionId() : null;
        for (String sessionId : from == null ? sessionIds : sessionIds.tailSet(from, true)) {
          addAfter(page, after, registry.withExisting(sessionId, state -> values(kind, state, holders), List::of));
          if (page.size() > limit) {
            break;
          }
        }
      }
      if (page.size() > limit) {
        break;
      }
    }
    return StoredValuePage.of(page, limit);
  }

  /** Adds the values of {@code values} past {@code after}, in scan order. */
  private static void addAfter(List<StoredValue> page, Optional<StoredValueRef> after, List<StoredValue> values) {
    values.stream().filter(value -> after.isEmpty() || StoredValueCursor.ORDER.compare(value.ref(), after.get()) > 0)
        .sorted((a, b) -> StoredValueCursor.ORDER.compare(a.ref(), b.ref())).forEach(page::add);
  }

  /**
   * Which session each event storage is scanned under: the one whose own storage it is, else the smallest id of
   * those that share it.
   */
  private Map<EventStorage, String> holders(TreeSet<String> sessionIds) {
    Map<EventStorage, String> owners = new IdentityHashMap<>();
    Map<EventStorage, String> sharers = new IdentityHashMap<>();
    for (String sessionId : sessionIds) {
      registry.withExisting(sessionId, state -> {
        List<EventStorage> storages = state.log.storages();
        owners.put(storages.get(0), sessionId);
        storages.subList(1, storages.size()).forEach(storage -> sharers.putIfAbsent(storage, sessionId));
        return null;
      }, () -> null);
    }
    sharers.forEach(owners::putIfAbsent);
    return owners;
  }

  /** The session's values of {@code kind}; the caller holds its lock. */
  private static List<StoredValue> values(StoredValueKind kind, SessionState state,
      Map<EventStorage, String> holders) {
    String id = state.id;
    List<StoredValue> values = new ArrayList<>();
    switch (kind) {
      case EVENT_PAYLOAD -> {
        Set<EventStorage> held = Collections.newSetFromMap(new IdentityHashMap<>());
        state.log.storages().stream().filter(storage -> id.equals(holders.get(storage))).forEach(held::add);
        state.log.shownFrom(held).forEach(event ->
            values.add(StoredValue.of(ref(kind, id, event.seq()), event.payload())));
      }
      case TOOL_CALL_ARGUMENTS -> state.toolCalls.values().forEach(call ->
          values.add(StoredValue.of(new StoredValueRef(kind, id, call.id()), call.arguments())));
      case TOOL_CALL_RESULT -> state.toolCalls.values().stream().filter(call -> call.result() != null)
          .forEach(call -> values.add(StoredValue.of(new StoredValueRef(kind, id, call.id()), call.result())));
      case SUMMARY_CONTENT -> state.summaries.values().forEach(summary ->
          values.add(StoredValue.of(ref(kind, id, summary.toSeq()), summary.content())));
      case CHECKPOINT_DATA -> state.checkpoints.values().forEach(checkpoint ->
          values.add(StoredValue.of(new StoredValueRef(kind, id, checkpoint.key().name()), checkpoint.data())));
      case MODEL_CALL_CONTEXT -> state.modelCalls.values().forEach(call ->
          values.add(StoredValue.of(ref(kind, id, call.turn()), call.context())));
      case MODEL_CALL_USAGE -> state.modelCalls.values().stream().filter(call -> call.usage() != null)
          .forEach(call -> values.add(StoredValue.of(ref(kind, id, call.turn()), call.usage())));
      default -> throw new IllegalStateException("no session values of kind " + kind);
    }
    return values;
  }

  private static StoredValueRef ref(StoredValueKind kind, String sessionId, long key) {
    return new StoredValueRef(kind, sessionId, Long.toString(key));
  }

  @Override
  public boolean rewrite(StoredValue expected, StoredValue replacement) {
    StoredValueCursor.checkRewrite(expected, replacement);
    context.checkOpen();
    StoredValueRef ref = expected.ref();
    if (ref.kind() == StoredValueKind.GLOBAL_CHECKPOINT_DATA) {
      AtomicBoolean applied = new AtomicBoolean();
      checkpoints.globalMap().computeIfPresent(ref.key(), (name, current) -> {
        if (!expected.blobEquals(current.data())) {
          return current;
        }
        applied.set(true);
        return new Checkpoint(current.key(), replacement.blob(), current.updatedAt());
      });
      return applied.get();
    }
    return registry.withExisting(ref.sessionId(), state -> rewrite(state, expected, replacement), () -> false);
  }

  /** The rewrite of one value of the session; the caller holds its lock. */
  private static boolean rewrite(SessionState state, StoredValue expected, StoredValue replacement) {
    StoredValueRef ref = expected.ref();
    Json old = expected.document();
    Json now = replacement.document();
    switch (ref.kind()) {
      case EVENT_PAYLOAD -> {
        return state.log.replacePayload(ref.numericKey(), old, now);
      }
      case TOOL_CALL_ARGUMENTS, TOOL_CALL_RESULT -> {
        ToolCall call = state.toolCalls.get(ref.key());
        boolean arguments = ref.kind() == StoredValueKind.TOOL_CALL_ARGUMENTS;
        if (call == null || !same(arguments ? call.arguments() : call.result(), old)) {
          return false;
        }
        state.toolCalls.put(call.id(), new ToolCall(call.id(), call.sessionId(), call.runId(), call.requestEventId(),
            call.toolName(), arguments ? now : call.arguments(), call.status(), arguments ? call.result() : now,
            call.deadline(), call.createdAt(), call.updatedAt()));
        return true;
      }
      case SUMMARY_CONTENT -> {
        Summary summary = state.summaries.get(ref.numericKey());
        if (summary == null || !same(summary.content(), old)) {
          return false;
        }
        state.summaries.put(summary.toSeq(), new Summary(summary.sessionId(), summary.fromSeq(), summary.toSeq(), now,
            summary.version(), summary.createdAt()));
        return true;
      }
      case CHECKPOINT_DATA -> {
        Checkpoint checkpoint = state.checkpoints.get(ref.key());
        if (checkpoint == null || !expected.blobEquals(checkpoint.data())) {
          return false;
        }
        state.checkpoints.put(ref.key(), new Checkpoint(checkpoint.key(), replacement.blob(), checkpoint.updatedAt()));
        return true;
      }
      case MODEL_CALL_CONTEXT, MODEL_CALL_USAGE -> {
        ModelCall call = state.modelCalls.get(ref.numericKey());
        boolean context = ref.kind() == StoredValueKind.MODEL_CALL_CONTEXT;
        if (call == null || !same(context ? call.context() : call.usage(), old)) {
          return false;
        }
        state.modelCalls.put(call.turn(), new ModelCall(call.sessionId(), call.turn(), call.model(),
            context ? now : call.context(), context ? call.usage() : now, call.recordedAt()));
        return true;
      }
      default -> throw new IllegalStateException("no session values of kind " + ref.kind());
    }
  }

  /** Whether the stored document is exactly {@code expected}, text for text. */
  private static boolean same(Json stored, Json expected) {
    return stored != null && stored.text().equals(expected.text());
  }
}
