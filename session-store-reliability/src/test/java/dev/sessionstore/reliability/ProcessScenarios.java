package dev.sessionstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Stores in other JVMs sharing one database (guarantees 1, 3, 8 and 10 of docs/guarantees.md): two processes of 16
 * threads on one session, writers killed with SIGKILL mid-stream, and a deadline set by a killed process. A backend
 * runs these by extending this class with its {@link #database()}.
 */
abstract class ProcessScenarios {

  private static final Duration PATIENCE = Duration.ofMinutes(3);

  private final List<ChildJvm> children = new ArrayList<>();
  private OpenStores stores;

  /** The database the processes share; the scenarios never disturb it. */
  protected abstract Database database();

  @BeforeEach
  void openSchema() {
    stores = new OpenStores(database(), Database.uniqueSchema("processes"));
    System.out.println("ProcessScenarios run on: " + database().description());
  }

  @AfterEach
  void closeAll() throws Exception {
    for (ChildJvm child : children) {
      child.close();
    }
    stores.close();
  }

  @Test
  @DisplayName("Two JVMs x 16 threads on one session: gapless, no duplicates, racing replays at one seq each, and"
      + " each process sees the other's events and wakes on its append")
  void twoProcessesOnOneSession() {
    SessionStore reader = stores.store("reader", 2, StoreTuning.defaults());
    ChildJvm first = child("first", StoreTuning.defaults().notificationsOnly());
    ChildJvm second = child("second", StoreTuning.defaults().notificationsOnly());
    Ledger ledger = new Ledger();
    first.send("hammer shared-log 16 150 first second");
    second.send("hammer shared-log 16 150 second first");
    long firstSaw = collect(first, "shared-log", ledger);
    long secondSaw = collect(second, "shared-log", ledger);

    String wokeFirst = wake(first, second, reader, "ping-1", ledger);
    String wokeSecond = wake(second, first, reader, "ping-2", ledger);

    Ledger.Verdict verdict = ledger.verify(reader);
    System.out.printf("ProcessScenarios: 2 JVMs x 16 threads on one session: %d acknowledgements of %d ids, %d"
            + " events found, %d lost; each saw %d and %d events of the other while appending; woken across"
            + " processes: %s, %s%n", ledger.acknowledgements(), verdict.acknowledgedIds(), verdict.found(),
        verdict.lost(), firstSaw, secondSaw, wokeFirst, wokeSecond);
    assertThat(verdict.found()).isEqualTo(verdict.acknowledgedIds()).isEqualTo(16 * 150 / 2 * 3 + 2);
    assertThat(ledger.acknowledgements()).isEqualTo(2 * 16 * 150 + 2);
    assertThat(firstSaw).isPositive();
    assertThat(secondSaw).isPositive();
  }

  @Test
  @DisplayName("Writers killed with SIGKILL mid-stream, twice: everything they acknowledged is stored, every batch"
      + " whole or absent, seqs gapless")
  void killedWritersLoseNothingAcknowledged() throws Exception {
    SessionStore reader = stores.store("reader", 2, StoreTuning.defaults());
    Ledger ledger = new Ledger();
    int kills = 2;
    int batch = 5;
    for (int k = 0; k < kills; k++) {
      ChildJvm writer = child("writer-" + k, StoreTuning.defaults());
      writer.send("stream killed-log k" + k + " 4 " + batch);
      AtomicLong seen = new AtomicLong();
      writer.until(line -> seen.get() >= 2_000, line -> record(line, "killed-log", ledger, seen),
          PATIENCE);
      writer.kill().forEach(line -> record(line, "killed-log", ledger, seen));
    }

    Ledger.Verdict verdict = ledger.verify(reader);
    List<Event> stored = reader.events().read("killed-log", EventQuery.all()).items();
    Map<String, Long> batchSizes = stored.stream().collect(Collectors.groupingBy(
        event -> event.id().substring(0, event.id().lastIndexOf('-')), Collectors.counting()));
    System.out.printf("ProcessScenarios: %d writer JVMs killed with SIGKILL mid-stream: %d events acknowledged, %d"
            + " found (%d stored but not yet acknowledged at the kill), %d lost, %d partial batches%n", kills,
        verdict.acknowledgedIds(), verdict.found(), verdict.found() - verdict.acknowledgedIds(), verdict.lost(),
        batchSizes.values().stream().filter(size -> size != batch).count());
    assertThat(batchSizes.values()).as("every stored batch is whole").allMatch(size -> size == batch);
    assertThat(verdict.acknowledgedIds()).isGreaterThanOrEqualTo(2L * 2_000);
  }

  @Test
  @DisplayName("A deadline set by a process killed with SIGKILL expires the call in another process")
  void deadlineOfAKilledProcessFires() throws Exception {
    SessionStore survivor = stores.store("survivor", 2,
        StoreTuning.defaults().deadlineSweepInterval(Duration.ofMillis(100)));
    ChildJvm setter = child("setter", StoreTuning.defaults().deadlineSweepInterval(Duration.ofHours(1)));
    setter.send("deadline deadline-session call-1 1500");
    Instant deadline = Instant.parse(setter.next(line -> line.startsWith("deadline-set "), PATIENCE).substring(13));
    setter.kill();

    Optional<ToolCall> expired = survivor.toolCalls().await("deadline-session", "call-1", Duration.ofSeconds(60));
    Instant observed = Instant.now();
    System.out.printf("ProcessScenarios: a deadline set by a JVM killed with SIGKILL fired in another, observed %d ms"
        + " after it was due%n", Duration.between(deadline, observed).toMillis());
    assertThat(expired).hasValueSatisfying(call -> assertThat(call.status()).isEqualTo(ToolCallStatus.EXPIRED));
    assertThat(observed).isAfterOrEqualTo(deadline);
    assertThat(survivor.toolCalls().pending("deadline-session")).isEmpty();
  }

  private ChildJvm child(String name, StoreTuning tuning) {
    ChildJvm child = ChildJvm.start(name, database(), stores.schema(), tuning);
    children.add(child);
    return child;
  }

  /** Records a child's acknowledgements until it reports {@code done}; returns its {@code saw-other} count. */
  private static long collect(ChildJvm child, String sessionId, Ledger ledger) {
    AtomicLong sawOther = new AtomicLong(-1);
    child.until(line -> line.equals("done"), line -> {
      Acknowledgement.parse(line).ifPresent(ack -> ledger.acknowledge(sessionId, ack.eventId(), ack.seq()));
      if (line.startsWith("saw-other ")) {
        sawOther.set(Long.parseLong(line.substring(10)));
      }
    }, PATIENCE);
    return sawOther.get();
  }

  /**
   * Makes {@code waiting} wait for the next event of the session and {@code appending} append {@code eventId}; asserts
   * that the wait returned that event and describes it.
   */
  private static String wake(ChildJvm waiting, ChildJvm appending, SessionStore reader, String eventId,
      Ledger ledger) {
    long last = reader.events().lastSeq("shared-log");
    waiting.send("await shared-log " + last + " 60000");
    waiting.next(line -> line.equals("waiting"), PATIENCE);
    long sent = System.nanoTime();
    appending.send("append shared-log " + eventId);
    appending.next(line -> Acknowledgement.parse(line)
        .map(ack -> {
          ledger.acknowledge("shared-log", ack.eventId(), ack.seq());
          return true;
        }).orElse(false), PATIENCE);
    String woken = waiting.next(line -> line.startsWith("woken ") || line.equals("timeout"), PATIENCE);
    long elapsed = (System.nanoTime() - sent) / 1_000_000;
    assertThat(woken).isEqualTo("woken " + eventId + " " + (last + 1));
    return eventId + " in " + elapsed + " ms";
  }

  private static void record(String line, String sessionId, Ledger ledger, AtomicLong seen) {
    Acknowledgement.parse(line).ifPresent(ack -> {
      ledger.acknowledge(sessionId, ack.eventId(), ack.seq());
      seen.incrementAndGet();
    });
  }
}
