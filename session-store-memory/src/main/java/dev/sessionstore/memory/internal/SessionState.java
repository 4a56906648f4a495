package dev.sessionstore.memory.internal;

import dev.sessionstore.Checkpoint;
import dev.sessionstore.ModelCall;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import dev.sessionstore.spi.ToolCallTransitions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Everything one session owns, behind that session's lock: the session record, its log, runs, tool calls,
 * summaries, checkpoints and audit rows. Every field except {@link #session()} is read and written only while
 * holding {@link #lock}; the session record is also published for lock-free listing.
 *
 * <p>A state lives in the {@link SessionRegistry} from the first write (or waiting read) under its id until the
 * session is deleted. A state whose {@link #session()} is {@code null} is not a session yet: it exists only for a
 * write in progress that may still fail, or for readers waiting on {@link #appended}. A removed state is never
 * reused; whoever finds one under the lock looks the id up again.
 */
final class SessionState {

  final String id;
  final ReentrantLock lock = new ReentrantLock();
  /** Signalled whenever events are added (append, fork), on removal and on close; waiting reads re-check. */
  final Condition appended = lock.newCondition();
  /** Signalled whenever a tool call of the session is resolved or expires, on removal and on close. */
  final Condition toolCallsChanged = lock.newCondition();

  /** The log; a fork replaces it with one that shares its parent's events. Volatile for {@link #session()}. */
  volatile SessionLog log;
  /** Runs by id, least recently updated first: a save removes and re-adds its run. */
  final LinkedHashMap<String, Run> runs = new LinkedHashMap<>();
  final Map<String, ToolCall> toolCalls = new HashMap<>();
  /** Summaries by {@code toSeq}. */
  final TreeMap<Long, Summary> summaries = new TreeMap<>();
  /** Session-scoped checkpoints by name. */
  final Map<String, Checkpoint> checkpoints = new HashMap<>();
  /** Model-call audit rows by turn. */
  final TreeMap<Long, ModelCall> modelCalls = new TreeMap<>();

  private volatile Session session;
  private boolean removed;
  private int waiters;
  /** When events were last added ({@link System#nanoTime()}), for the wake latency of waiting reads. */
  private long appendedAtNanos;
  /** When a tool call last changed ({@link System#nanoTime()}), for the wake latency of tool-call waits. */
  private long toolCallsChangedAtNanos;

  SessionState(String id) {
    this.id = id;
    this.log = new SessionLog(id);
  }

  /**
   * The session record with its log's last seq, or {@code null} while the session does not exist. Readable without
   * the lock: a reader not holding it may see the last seq of a write in progress.
   */
  Session session() {
    Session stored = session;
    return stored == null ? null : stored.withLastSeq(log.lastSeq());
  }

  boolean exists() {
    return session != null;
  }

  void session(Session session) {
    this.session = session;
  }

  boolean isRemoved() {
    return removed;
  }

  /**
   * Drops the requesting event of every tool call whose event the log no longer holds: what a cut of the log does
   * last, after a step's own calls are stored, so that no call names an event its log does not hold.
   */
  void dropCutRequestEvents() {
    toolCalls.replaceAll((toolCallId, call) -> call.requestEventId() == null || log.find(call.requestEventId()) != null
        ? call : ToolCallTransitions.withoutRequestEvent(call));
  }

  /**
   * Marks this state dead, its session record dropped and waiting readers woken. What it owned is not cleared: no
   * one reads a removed state's fields (every path checks {@link #isRemoved()} or {@link #exists()} under the lock),
   * and once the registry has dropped it, the garbage collector takes it all; the event storages its forks share
   * stay alive through the forks.
   */
  void remove() {
    removed = true;
    session = null;
    appended.signalAll();
    toolCallsChanged.signalAll();
  }

  /** Whether this state only exists as a placeholder no one needs any more. */
  boolean isUnused() {
    return session == null && waiters == 0 && !removed;
  }

  /** Wakes the readers waiting on {@link #appended} for events just added; the caller holds the lock. */
  void signalAppended() {
    appendedAtNanos = System.nanoTime();
    appended.signalAll();
  }

  /** Wakes the tool-call waits for a call just resolved or expired; the caller holds the lock. */
  void signalToolCallsChanged() {
    toolCallsChangedAtNanos = System.nanoTime();
    toolCallsChanged.signalAll();
  }

  /** When {@link #signalAppended()} last ran ({@link System#nanoTime()}); the caller holds the lock. */
  long appendedAtNanos() {
    return appendedAtNanos;
  }

  /** When {@link #signalToolCallsChanged()} last ran ({@link System#nanoTime()}); the caller holds the lock. */
  long toolCallsChangedAtNanos() {
    return toolCallsChangedAtNanos;
  }

  void addWaiter() {
    waiters++;
  }

  void removeWaiter() {
    waiters--;
  }
}
