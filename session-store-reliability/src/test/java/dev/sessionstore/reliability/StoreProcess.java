package dev.sessionstore.reliability;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.ToolCallWrite;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Another process using the store: a JVM the reliability tests start, which opens a store on the given database and
 * schema and runs the commands it reads from stdin, one a line. It reports on stdout, one line each, every event an
 * append acknowledged as {@code ack <event id> <seq> .} (the final dot marks a complete line, so a line cut short by
 * a kill is never mistaken for an acknowledgement), and the other results named below.
 *
 * <p>Arguments: JDBC URL, schema (the namespace {@link Stores#open} keeps the tables under), then the
 * {@link StoreTuning} words.
 */
public final class StoreProcess {

  private final SessionStore store;
  private final PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);

  private StoreProcess(SessionStore store) {
    this.store = store;
  }

  public static void main(String[] arguments) throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(arguments[0]);
    config.setMaximumPoolSize(20);
    config.setMinimumIdle(0);
    try (HikariDataSource pool = new HikariDataSource(config);
         SessionStore store = Stores.open(pool, arguments[0], arguments[1],
             StoreTuning.fromArguments(arguments, 2))) {
      StoreProcess process = new StoreProcess(store);
      process.out.println("ready");
      BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = commands.readLine(); line != null && !line.equals("exit"); line = commands.readLine()) {
        process.run(line.split(" "));
      }
    }
  }

  private void run(String[] command) throws Exception {
    switch (command[0]) {
      case "hammer" -> hammer(command[1], Integer.parseInt(command[2]), Integer.parseInt(command[3]), command[4],
          command[5]);
      case "stream" -> stream(command[1], command[2], Integer.parseInt(command[3]), Integer.parseInt(command[4]));
      case "await" -> await(command[1], Long.parseLong(command[2]), Duration.ofMillis(Long.parseLong(command[3])));
      case "append" -> acknowledge(store.events().append(command[1], NewEvent.of("ping").withId(command[2])));
      case "deadline" -> {
        Instant deadline = Instant.now().plusMillis(Long.parseLong(command[3]));
        store.toolCalls().save(ToolCallWrite.of(command[2], command[1], "approve").withDeadline(deadline));
        out.println("deadline-set " + deadline);
      }
      default -> throw new IllegalArgumentException("unknown command " + String.join(" ", command));
    }
  }

  /**
   * {@code hammer <session> <threads> <appends per thread> <tag> <other tag>}: each thread appends single events,
   * alternately with an id every process of the test also appends (a racing replay) and with an id of this process
   * alone, while a watcher waits for events of the process tagged {@code other tag}. Prints every acknowledgement,
   * then {@code saw-other <count>} and {@code done}.
   */
  private void hammer(String sessionId, int threads, int perThread, String tag, String otherTag) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    AtomicLong othersSeen = new AtomicLong();
    AtomicLong finished = new AtomicLong();
    Future<?> watcher = pool.submit(() -> {
      long after = 0;
      while (finished.get() < threads || othersSeen.get() == 0) {
        EventPage page = store.events().await(sessionId, EventQuery.all().after(after), Duration.ofSeconds(5));
        for (Event event : page.items()) {
          after = event.seq();
          if (event.id().startsWith(otherTag + "-")) {
            othersSeen.incrementAndGet();
          }
        }
      }
    });
    List<Future<?>> writers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      writers.add(pool.submit(() -> {
        for (int i = 0; i < perThread; i++) {
          boolean shared = i % 2 == 0;
          String id = (shared ? "shared" : tag) + "-t" + thread + "-" + i;
          Json payload = Json.from(shared ? Map.of("thread", thread, "i", i) : Map.of("tag", tag, "i", i));
          acknowledge(store.events().append(sessionId, NewEvent.of("step", payload).withId(id)));
        }
        finished.incrementAndGet();
      }));
    }
    for (Future<?> writer : writers) {
      writer.get();
    }
    watcher.get();
    pool.shutdown();
    out.println("saw-other " + othersSeen.get());
    out.println("done");
  }

  /**
   * {@code stream <session> <tag> <threads> <batch size>}: each thread appends batches until the process is killed;
   * batch {@code n} of thread {@code t} holds ids {@code <tag>-t<t>-b<n>-<i>}.
   */
  private void stream(String sessionId, String tag, int threads, int batchSize) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> writers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      String prefix = tag + "-t" + t + "-b";
      writers.add(pool.submit(() -> {
        for (long n = 0; ; n++) {
          List<NewEvent> batch = new ArrayList<>();
          for (int i = 0; i < batchSize; i++) {
            batch.add(NewEvent.of("step").withId(prefix + n + "-" + i));
          }
          store.events().appendAll(sessionId, batch).forEach(this::acknowledge);
        }
      }));
    }
    for (Future<?> writer : writers) {
      writer.get();
    }
  }

  /**
   * {@code await <session> <after seq> <timeout ms>}: prints {@code waiting}, then {@code woken <id> <seq>} or
   * {@code timeout}.
   */
  private void await(String sessionId, long after, Duration timeout) {
    out.println("waiting");
    EventPage page = store.events().await(sessionId, EventQuery.all().after(after), timeout);
    out.println(page.isEmpty() ? "timeout" : "woken " + page.items().get(0).id() + " " + page.items().get(0).seq());
  }

  private void acknowledge(Event event) {
    out.println("ack " + event.id() + " " + event.seq() + " .");
  }
}
