package dev.sessionstore.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Runs the demo's entry points: the README's command, and the conversation on a given store and stream. */
class ConversationDemoTest {

  @Test
  void mainPrintsEveryStepOfTheConversation() throws InterruptedException {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream original = System.out;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      ConversationDemo.main(new String[0]);
    } finally {
      System.setOut(original);
    }

    assertThat(printed.toString(StandardCharsets.UTF_8))
        .startsWith("session-store demo")
        .contains(" 1. Create a session", "17. List sessions", "trip-lisbon-rainy");
  }

  @Test
  void runWritesToTheGivenStoreAndPrintsToTheGivenStream() throws InterruptedException {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (SessionStore store = InMemorySessionStore.builder().build()) {
      ConversationDemo.run(store, "a test store", new PrintStream(printed, true, StandardCharsets.UTF_8));

      assertThat(store.events().lastSeq(ConversationDemo.SESSION_ID)).isEqualTo(8);
      assertThat(store.events().read(ConversationDemo.FORK_ID, EventQuery.all()).items()).hasSize(6);
      assertThat(ConversationDemo.sessionsIn(store))
          .containsExactly(ConversationDemo.SESSION_ID, ConversationDemo.FORK_ID);
    }
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .startsWith("session-store demo: one agent conversation on a test store")
        .contains("17. List sessions");
  }

  @Test
  void runRefusesAStoreThatHoldsTheConversationAlready() throws InterruptedException {
    try (SessionStore store = InMemorySessionStore.builder().build()) {
      ConversationDemo.run(store, "a test store", new PrintStream(new ByteArrayOutputStream(), true,
          StandardCharsets.UTF_8));

      assertThatThrownBy(() -> ConversationDemo.run(store, "a test store", System.out))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(ConversationDemo.SESSION_ID);
      assertThat(store.events().lastSeq(ConversationDemo.SESSION_ID)).isEqualTo(8);
    }
  }
}
