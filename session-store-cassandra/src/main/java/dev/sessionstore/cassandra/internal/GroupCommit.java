package dev.sessionstore.cassandra.internal;

import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Step;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Group commit of plain appends (no expected seq) to one session: an append waits in the session's in-process queue
 * ({@link SessionQueue}); the thread whose turn comes commits every append waiting by then as one conditional batch
 * (one Paxos round for all of them) and hands each its own events. So many threads of one process appending to one
 * session cost about one round per group instead of one per append. The shared duplicate-id rule applies across the
 * group; if the group fails on a rule that belongs to one member (a reused id with other content, a batch too large),
 * its members are committed one by one instead, so each gets exactly the answer it would have got alone. A failure of
 * the cluster (nothing written, or an unknown outcome) is every member's answer.
 */
final class GroupCommit {

  private final StepWriter writer;
  private final SessionQueue queue;
  private final ConcurrentHashMap<String, ArrayDeque<Request>> waiting = new ConcurrentHashMap<>();

  GroupCommit(StepWriter writer, SessionQueue queue) {
    this.writer = writer;
    this.queue = queue;
  }

  /** Appends {@code events} (not empty) to {@code sessionId}, with whatever else is waiting to be appended there. */
  List<Event> append(String sessionId, List<NewEvent> events) {
    Request request = new Request(events);
    waiting.compute(sessionId, (id, queued) -> {
      ArrayDeque<Request> requests = queued == null ? new ArrayDeque<>() : queued;
      requests.add(request);
      return requests;
    });
    return queue.run(sessionId, () -> {
      while (!request.done) {
        commit(sessionId, drain(sessionId));
      }
      return request.result();
    });
  }

  /** The waiting requests, oldest first, as many as fit one batch ({@link Limits#MAX_BATCH_SIZE} events). */
  private List<Request> drain(String sessionId) {
    List<Request> group = new ArrayList<>();
    waiting.computeIfPresent(sessionId, (id, queued) -> {
      int events = 0;
      while (!queued.isEmpty() && (group.isEmpty()
          || events + queued.peek().events.size() <= Limits.MAX_BATCH_SIZE)) {
        Request next = queued.poll();
        events += next.events.size();
        group.add(next);
      }
      return queued.isEmpty() ? null : queued;
    });
    return group;
  }

  private void commit(String sessionId, List<Request> group) {
    if (group.size() == 1) {
      commitAlone(sessionId, group.get(0));
      return;
    }
    List<NewEvent> all = new ArrayList<>();
    group.forEach(request -> all.addAll(request.events));
    List<Event> stored;
    try {
      stored = writer.commitQueued(Step.builder(sessionId).events(all).build(), false);
    } catch (DuplicateEventException | InvalidArgumentException oneMembersRule) {
      group.forEach(request -> commitAlone(sessionId, request));
      return;
    } catch (RuntimeException clusterFailure) {
      group.forEach(request -> request.fail(clusterFailure));
      return;
    }
    int from = 0;
    for (Request request : group) {
      request.succeed(stored.subList(from, from + request.events.size()));
      from += request.events.size();
    }
  }

  private void commitAlone(String sessionId, Request request) {
    try {
      request.succeed(writer.commitQueued(Step.builder(sessionId).events(request.events).build(), false));
    } catch (RuntimeException e) {
      request.fail(e);
    }
  }

  /** One append waiting for its group; its fields are written and read under the session's queue lock. */
  private static final class Request {
    private final List<NewEvent> events;
    private boolean done;
    private List<Event> stored;
    private RuntimeException failure;

    Request(List<NewEvent> events) {
      this.events = events;
    }

    void succeed(List<Event> result) {
      stored = List.copyOf(result);
      done = true;
    }

    void fail(RuntimeException e) {
      failure = e;
      done = true;
    }

    List<Event> result() {
      if (failure != null) {
        throw failure;
      }
      return stored;
    }
  }
}
