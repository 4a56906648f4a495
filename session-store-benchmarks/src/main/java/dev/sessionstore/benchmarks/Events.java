package dev.sessionstore.benchmarks;

import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import java.util.ArrayList;
import java.util.List;

/** The events the benchmarks store: chat turns with a payload of typical size (about 150 characters of JSON). */
public final class Events {

  /** How many events a setup appends per call while filling a session. */
  private static final int FILL_BATCH = 1_000;

  /** The text of every turn: a sentence or two, as a model or a user says in one turn. */
  public static final String TEXT = "a message of typical length, about a sentence or two long, standing in for "
      + "what a model or a user says in one turn";

  /**
   * The payload of every event appended inside a measurement, parsed once: a measure that times the making of a
   * payload as well says so and makes it again ({@link #withPayloadFromText}).
   */
  public static final Json REPLY = payload(0);

  private Events() {
  }

  /**
   * The {@code i}-th event of a filled session: id {@code e-<i>}, {@link #type(long) type} user and assistant turns
   * alternating.
   */
  public static NewEvent turn(long i) {
    return NewEvent.of(type(i), payload(i)).withId("e-" + i);
  }

  /** An event with id {@code e-<i>} and the shared {@link #REPLY} payload, cheap to make inside a measurement. */
  public static NewEvent reply(long i) {
    return new NewEvent("e-" + i, type(i), null, null, null, REPLY, null);
  }

  /**
   * {@code event} with its payload made again from its text ({@link Json#of}: checked, and its search words read), as
   * a caller holding the text makes it before an append: for a library side whose timed call should include that
   * work, since a raw twin is handed the text.
   */
  public static NewEvent withPayloadFromText(NewEvent event) {
    return event.withPayload(Json.of(event.payload().text()));
  }

  /**
   * The {@code call}-th batch of {@code size} {@link #reply replies}: ids {@code e-<call*size>} onwards, so that the
   * batches of successive calls never share an id.
   */
  public static List<NewEvent> replies(long call, int size) {
    List<NewEvent> batch = new ArrayList<>(size);
    for (int k = 0; k < size; k++) {
      batch.add(reply(call * size + k));
    }
    return batch;
  }

  /** Appends {@link #turn turns} {@code 0..count-1} to {@code sessionId}, {@value #FILL_BATCH} per batch. */
  public static void fill(SessionStore store, String sessionId, int count) {
    for (int first = 0; first < count; first += FILL_BATCH) {
      List<NewEvent> batch = new ArrayList<>(FILL_BATCH);
      for (int i = first; i < Math.min(count, first + FILL_BATCH); i++) {
        batch.add(turn(i));
      }
      store.events().appendAll(sessionId, batch);
    }
  }

  /** The type of the {@code i}-th event: {@code user_message} for even {@code i}, else {@code assistant_message}. */
  public static String type(long i) {
    return i % 2 == 0 ? "user_message" : "assistant_message";
  }

  private static Json payload(long i) {
    return Json.from(new Turn(i, TEXT));
  }

  /** The payload of a chat turn: its number and its text. */
  record Turn(long turn, String text) {
  }
}
