package dev.sessionstore;

import dev.sessionstore.spi.Arguments;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The outcome of one execution, persisted atomically by {@link SessionStore#flush}: a session upsert, an optional
 * run upsert, and events appended to that session (SPEC guarantee 4).
 *
 * @param session         the session upsert
 * @param run             the run upsert, or {@code null}; it must belong to {@code session}
 * @param events          events to append to the session, possibly none
 * @param expectedLastSeq the seq the log must end at for the events to be appended, or empty for no check
 */
public record Flush(SessionWrite session, RunWrite run, List<NewEvent> events, OptionalLong expectedLastSeq) {

  public Flush {
    Arguments.requireNonNull("flush.session", session);
    if (run != null && !run.sessionId().equals(session.id())) {
      throw new InvalidArgumentException("flush.run.sessionId",
          "run " + run.id() + " names session " + run.sessionId() + ", not " + session.id());
    }
    events = List.copyOf(Arguments.requireNonNull("flush.events", events));
    Objects.requireNonNull(expectedLastSeq, "expectedLastSeq");
    expectedLastSeq.ifPresent(seq -> Arguments.requireNonNegative("flush.expectedLastSeq", seq));
  }

  /** A flush of just this session write. */
  public static Flush of(SessionWrite session) {
    return new Flush(session, null, List.of(), OptionalLong.empty());
  }

  public Flush withRun(RunWrite run) {
    return new Flush(session, Objects.requireNonNull(run, "run"), events, expectedLastSeq);
  }

  public Flush withEvents(List<NewEvent> events) {
    return new Flush(session, run, events, expectedLastSeq);
  }

  public Flush expectingLastSeq(long seq) {
    return new Flush(session, run, events, OptionalLong.of(seq));
  }
}
