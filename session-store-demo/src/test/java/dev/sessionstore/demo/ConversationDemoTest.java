package dev.sessionstore.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Runs the demo's entry point as the README's command does and checks the whole transcript came out. */
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
}
