package dev.sessionstore.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.Resolution;
import dev.sessionstore.Revival;
import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.Step;
import dev.sessionstore.StepOutcome;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import dev.sessionstore.memory.InMemorySessionStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The quick starts, verbatim: the README's ten lines ({@link #shortQuickStartWorksAsDocumented()}) and the long tour
 * of {@code docs/api.md} ({@link #quickStartWorksAsDocumented()}) run here and have their results checked, and
 * {@link #readmeShowsExactlyTheShortCode()} and {@link #apiPageShowsExactlyThisCode()} fail when a page's code block
 * and this file drift apart.
 */
class ReadmeQuickStartTest {

  private static final String BEGIN = "// README quick-start: begin";
  private static final String END = "// README quick-start: end";
  private static final String SHORT_BEGIN = "// README short quick-start: begin";
  private static final String SHORT_END = "// README short quick-start: end";
  private static final String API_PAGE_MARKER = "<!-- quick-start:";
  private static final String README_MARKER = "<!-- quick-start-short:";
  private static final String METHOD_INDENT = "    ";

  @Test
  void shortQuickStartWorksAsDocumented() {
    // README short quick-start: begin
    SessionStore store = InMemorySessionStore.builder().build();   // or JdbcSessionStore: SQLite, PostgreSQL
    Session session = store.sessions().save(SessionWrite.of("support-42").withName("double charge"));
    store.events().append(session.id(), NewEvent.of("user_message", Json.of("{\"text\":\"Charged twice?\"}")).withId("m-1"));
    StepOutcome turn = store.commit(Step.builder(session.id())     // one agent step, all or nothing
        .event(NewEvent.of("assistant_message", Json.of("{\"text\":\"Let me look.\"}")).withId("m-2"))
        .expectLastSeq(1)                                          // only if nobody appended meanwhile
        .build());
    EventPage tail = store.events().read(session.id(), EventQuery.all().last(20));   // m-1, m-2: seqs 1, 2
    Revival revival = store.summaries().revive(session.id());     // what a restarted agent reads first
    store.close();
    // README short quick-start: end

    assertThat(session.name()).isEqualTo("double charge");
    assertThat(turn.isCommitted()).isTrue();
    assertThat(tail.items()).extracting(Event::id).containsExactly("m-1", "m-2");
    assertThat(tail.items()).extracting(Event::seq).containsExactly(1L, 2L);
    assertThat(revival.summary()).isEmpty();
    assertThat(revival.events()).extracting(Event::id).containsExactly("m-1", "m-2");
  }

  @Test
  void readmeShowsExactlyTheShortCode() throws IOException {
    Path moduleDir = Path.of("").toAbsolutePath();
    List<String> block = javaBlockAfter(moduleDir.resolveSibling("README.md"), README_MARKER);
    String source = Files.readString(moduleDir.resolve(
        "src/test/java/dev/sessionstore/demo/ReadmeQuickStartTest.java"));

    assertThat(String.join("\n", block).strip()).isEqualTo(markedRegion(source, SHORT_BEGIN, SHORT_END));
  }

  @Test
  void quickStartWorksAsDocumented() {
    // README quick-start: begin
    // Payloads are JSON documents made from maps, records or Jackson trees, and read back as them.
    record AgentSettings(String model, String resume_policy) {}

    SessionStore store = InMemorySessionStore.builder().build();

    // A session is one conversation; settings hold the agent's config, metadata is a string map.
    Session session = store.sessions().save(SessionWrite.of("support-42")
        .withName("double charge")
        .withSettings(Json.from(new AgentSettings("my-model", "eager")))
        .withMetadata("customer", "c-981"));

    // Appends are atomic per batch; the event id is the idempotency key, the store assigns seq 1, 2, ...
    List<Event> appended = store.events().appendAll(session.id(), List.of(
        NewEvent.of("user_message", Json.from(Map.of("text", "Why was I charged twice?"))).withId("m-1"),
        NewEvent.of("assistant_message", Json.from(Map.of("text", "Let me look at the invoice.")))
            .withId("m-2").withAgentId("support-bot").withParentId("m-1")));

    // The tail: the last 20 events, oldest first. Page back with EventQuery.all().before(oldestSeq).last(20).
    EventPage tail = store.events().read(session.id(), EventQuery.all().last(20));

    // A human approval is two atomic steps. The request: the tool_use event and the pending call (with a deadline the
    // store enforces, durably with PostgreSQL) land together, so a crash never leaves one without the other.
    NewEvent toolUse = NewEvent.of("tool_use", Json.from(Map.of("invoice", "INV-7")))
        .withId("m-3").withAgentId("support-bot");
    StepOutcome request = store.commit(Step.builder(session.id())
        .event(toolUse)
        .registerToolCall(ToolCallWrite.of("call-1", session.id(), "approve_refund")
            .withRequestEventId(toolUse.id())
            .withDeadline(Instant.now().plus(Duration.ofHours(4))))
        .expectLastSeq(2)
        .build());
    long seen = request.orElseThrow().lastSeq();   // 3: the next step's expected seq

    // The answer: the resolution (a compare-and-set from pending) and the tool_result event, together. Re-submitting
    // the same step after a lost connection stores nothing twice; an answer to a call already settled otherwise is
    // rejected whole, as a value naming the call.
    StepOutcome answer = store.commit(Step.builder(session.id())
        .resolve("call-1", ToolCallStatus.COMPLETED, Json.from(Map.of("approved", true)))
        .event(NewEvent.of("tool_result", Json.from(Map.of("approved", true))).withId("m-4").withParentId("m-3"))
        .build());
    StepOutcome late = store.commit(Step.builder(session.id())
        .resolve("call-1", ToolCallStatus.FAILED, null)
        .event(NewEvent.of("tool_result", Json.from(Map.of("approved", false))).withId("m-5"))
        .build());

    // Reviving an agent: the latest summary (none yet) and every event after it, in one call.
    Revival revival = store.summaries().revive(session.id());

    AgentSettings settings = session.settings().as(AgentSettings.class);

    store.close();
    // README quick-start: end

    assertThat(session.resumesEagerly()).isTrue();
    assertThat(session.metadata()).containsEntry("customer", "c-981");
    assertThat(appended).extracting(Event::seq).containsExactly(1L, 2L);
    assertThat(tail.items()).extracting(Event::id).containsExactly("m-1", "m-2");
    assertThat(tail.nextCursor()).isEmpty();
    assertThat(request.isCommitted()).isTrue();
    assertThat(seen).isEqualTo(3);
    assertThat(answer).isInstanceOfSatisfying(StepOutcome.Committed.class, committed -> {
      assertThat(committed.result().resolutions()).singleElement().isInstanceOf(Resolution.Resolved.class);
      assertThat(committed.result().events()).extracting(Event::seq).containsExactly(4L);
    });
    assertThat(late).isInstanceOfSatisfying(StepOutcome.Rejected.class, rejected -> assertThat(rejected.stale())
        .singleElement().satisfies(stale -> assertThat(stale.toolCallId()).isEqualTo("call-1")));
    assertThat(revival.summary()).isEmpty();
    assertThat(revival.events()).extracting(Event::id).containsExactly("m-1", "m-2", "m-3", "m-4");
    assertThat(settings).isEqualTo(new AgentSettings("my-model", "eager"));
  }

  @Test
  void apiPageShowsExactlyThisCode() throws IOException {
    Path moduleDir = Path.of("").toAbsolutePath();
    List<String> block = javaBlockAfter(moduleDir.resolveSibling("docs").resolve("api.md"), API_PAGE_MARKER);
    String source = Files.readString(moduleDir.resolve(
        "src/test/java/dev/sessionstore/demo/ReadmeQuickStartTest.java"));

    List<String> imports = block.stream().filter(line -> line.startsWith("import ")).toList();
    String code = block.stream().skip(imports.size()).collect(Collectors.joining("\n")).strip();

    assertThat(imports).isNotEmpty().allSatisfy(line -> assertThat(source).contains("\n" + line + "\n"));
    assertThat(code).isEqualTo(markedRegion(source, BEGIN, END));
  }

  /** The lines of the first {@code java} code block after the line of {@code page} starting with {@code marker}. */
  private static List<String> javaBlockAfter(Path page, String marker) throws IOException {
    List<String> lines = Files.readAllLines(page);
    int markerLine = indexOf(lines, 0, line -> line.startsWith(marker));
    int open = indexOf(lines, markerLine, line -> line.equals("```java"));
    int close = indexOf(lines, open + 1, line -> line.equals("```"));
    return lines.subList(open + 1, close);
  }

  /** The lines between the given begin and end comments of this file, without the test method's indentation. */
  private static String markedRegion(String source, String beginComment, String endComment) {
    List<String> lines = source.lines().toList();
    int begin = indexOf(lines, 0, line -> line.strip().equals(beginComment));
    int end = indexOf(lines, begin, line -> line.strip().equals(endComment));
    return lines.subList(begin + 1, end).stream()
        .map(line -> line.startsWith(METHOD_INDENT) ? line.substring(METHOD_INDENT.length()) : line.strip())
        .collect(Collectors.joining("\n"))
        .strip();
  }

  private static int indexOf(List<String> lines, int from, Predicate<String> test) {
    for (int i = from; i < lines.size(); i++) {
      if (test.test(lines.get(i))) {
        return i;
      }
    }
    throw new AssertionError("no line from " + from + " on matches; expected the README's " + README_MARKER
        + " block, docs/api.md's " + API_PAGE_MARKER + " block and this file's begin / end comments");
  }
}
