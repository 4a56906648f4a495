package dev.sessionstore.demo;

import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import java.io.PrintStream;
import java.util.List;
import java.util.stream.Stream;

/**
 * The scripted conversation of {@link ConversationScript}, run on any store and printed step by step. From the
 * repository root, on the in-memory store:
 *
 * <pre>{@code
 * ./mvnw -q -pl session-store-demo -am compile exec:java
 * }</pre>
 */
public final class ConversationDemo {

  /** The id of the session the conversation writes; its fork is {@value #FORK_ID}. */
  public static final String SESSION_ID = ConversationScript.SESSION_ID;

  /** The id of the fork the conversation creates. */
  public static final String FORK_ID = ConversationScript.FORK_ID;

  private ConversationDemo() {
  }

  public static void main(String[] args) throws InterruptedException {
    try (SessionStore store = InMemorySessionStore.builder().build()) {
      run(store, "the in-memory store", System.out);
    }
  }

  /**
   * Writes the whole conversation to {@code store} and prints it to {@code out}, under a banner naming
   * {@code storeName}. The conversation owns its ids ({@link #SESSION_ID}, {@link #FORK_ID}): the store must not
   * hold them yet. The store stays open.
   *
   * @throws IllegalStateException if the store already holds a session of the conversation
   * @throws InterruptedException  if interrupted during its waiting read
   */
  public static void run(SessionStore store, String storeName, PrintStream out) throws InterruptedException {
    List<String> taken = sessionsIn(store);
    if (!taken.isEmpty()) {
      throw new IllegalStateException("the store already holds the demo's sessions " + taken);
    }
    TranscriptPrinter printer = new TranscriptPrinter(out);
    printer.title("session-store demo: one agent conversation on " + storeName);
    new ConversationScript(store, printer).run();
  }

  /** The ids of the conversation's sessions that {@code store} already holds; empty when it can run there. */
  public static List<String> sessionsIn(SessionStore store) {
    return Stream.of(SESSION_ID, FORK_ID).filter(id -> store.sessions().find(id).isPresent()).toList();
  }
}
