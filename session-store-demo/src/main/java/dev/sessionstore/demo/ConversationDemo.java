package dev.sessionstore.demo;

import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;

/**
 * Runs the scripted conversation of {@link ConversationScript} on the in-memory store and prints it to standard
 * output. From the repository root:
 *
 * <pre>{@code
 * ./mvnw -q -pl session-store-demo -am compile exec:java
 * }</pre>
 */
public final class ConversationDemo {

  private ConversationDemo() {
  }

  public static void main(String[] args) throws InterruptedException {
    TranscriptPrinter printer = new TranscriptPrinter(System.out);
    printer.title("session-store demo: one agent conversation on the in-memory store");
    try (SessionStore store = InMemorySessionStore.builder().build()) {
      new ConversationScript(store, printer).run();
    }
  }
}
