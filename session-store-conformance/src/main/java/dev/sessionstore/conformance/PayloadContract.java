package dev.sessionstore.conformance;

import static dev.sessionstore.conformance.Lookups.present;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sessionstore.Capability;
import dev.sessionstore.DuplicateEventException;
import dev.sessionstore.Event;
import dev.sessionstore.EventQuery;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.ModelCall;
import dev.sessionstore.NewEvent;
import dev.sessionstore.NewModelCall;
import dev.sessionstore.NewSummary;
import dev.sessionstore.Run;
import dev.sessionstore.RunWrite;
import dev.sessionstore.Session;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import dev.sessionstore.SessionWrite;
import dev.sessionstore.ToolCall;
import dev.sessionstore.ToolCallStatus;
import dev.sessionstore.ToolCallWrite;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Payloads: every JSON document a caller hands the store (event payloads, session settings, run usage and errors,
 * tool arguments and results, summary content, audit context and usage) comes back with exactly the text written
 * (guarantee 18 of docs/guarantees.md): key order, whitespace, escapes and number notation included, so that no two
 * adapters can be told apart by their output. Any shape at the top level, nested structures, every Unicode character
 * including astral-plane ones, and numbers exactly as written, never rounded through a double. Text that is not a
 * storable document (not JSON, NaN or infinities, too deep, too long, U+0000, unpaired surrogates) is rejected with
 * {@link InvalidArgumentException} before it reaches the store, and ids containing U+0000 are rejected by the store
 * methods themselves, with nothing written and the store still serving (guarantee 15 of docs/guarantees.md). Cases for
 * optional aggregates run when the store declares them.
 *
 * <p>If this fails, check the column types and the (de)serializer between {@link Json#text()} and the backend: a
 * column that keeps the text as written (PostgreSQL {@code json} or {@code text}; {@code jsonb} reorders keys and
 * reprints numbers), no mapper between the column and {@link Json#parse} (one reading numbers as {@code double}
 * rounds them, one writing a tree reorders or reformats), a text column or driver path that is UTF-8 throughout
 * (surrogate pairs, not CESU-8 or Latin-1), nothing that drops or rewrites top-level scalars (a document
 * {@code null} is not SQL {@code NULL}, and a missing document is {@code {}}), a length limit counted in chars rather
 * than bytes, and that every method taking an id calls {@code Arguments.requireKey} before it touches the backend.
 */
public abstract class PayloadContract extends Contract {

  private static final String NUL = String.valueOf((char) 0);
  private static final String BAD_ID = "bad" + NUL + "id";
  private static final Pattern NUMBER =
      Pattern.compile("\"n\"\\s*:\\s*(-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)");

  /**
   * The group's tests, each run against fresh stores of {@code kit}.
   * @param kit the kit whose factory methods build the stores under test
   */
  protected PayloadContract(SessionStoreConformance kit) {
    super(kit);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Test data

  /** Documents every store must give back equal: a readable name and the JSON text. */
  static Stream<Arguments> documents() {
    return Stream.of(
        Arguments.of("nested objects and arrays",
            "{\"a\":{\"b\":[1,{\"c\":[true,false,null]}],\"d\":\"x\"},\"e\":[[],[{}]],\"f\":{\"g\":{\"h\":{}}}}"),
        Arguments.of("unicode text",
            "{\"s\":\"h\u00e9llo w\u00f6rld \u00f1 \u2014 \u65e5\u672c\u8a9e \ud55c\uad6d\uc5b4 "
                + "\u05e2\u05d1\u05e8\u05d9\u05ea "
                + "\u0627\u0644\u0639\u0631\u0628\u064a\u0629\","
                + "\"\u00fcber\":\"\u00c5ngstr\u00f6m\"}"),
        Arguments.of("astral-plane emoji and symbols, in values and keys",
            "{\"s\":\"\ud83d\ude00\ud83d\ude80 \ud83d\udc69\u200d\ud83d\udcbb \ud83c\udff3\ufe0f\u200d\ud83c\udf08 "
                + "\ud834\udd1e \ud841\udf0e\",\"\ud83d\udd11\":[\"\ud83c\udf55\"]}"),
        Arguments.of("JSON escapes of every kind",
            "{\"s\":\"quote \\\" backslash \\\\ slash \\/ \\b\\f\\n\\r\\t ctrl \\u0001\\u001f "
                + "e-acute \\u00e9 emoji \\ud83d\\ude00 separators \\u2028\\u2029\"}"),
        Arguments.of("empty object", "{}"),
        Arguments.of("empty array", "[]"),
        Arguments.of("empty key and empty string", "{\"\":\"\"}"),
        Arguments.of("top-level array", "[1,\"two\",{\"three\":3},[4],null]"),
        Arguments.of("top-level string", "\"just a string\""),
        Arguments.of("top-level number", "42"),
        Arguments.of("top-level negative decimal", "-0.5"),
        Arguments.of("top-level true", "true"),
        Arguments.of("top-level false", "false"),
        Arguments.of("top-level null", "null"),
        Arguments.of("keys that look like paths and operators",
            "{\"a.b\":1,\"$where\":2,\"key with spaces\":3,\"a[0]\":4,\"-->\":5,\"'q'\":6,\"%s\":7,\"\\\\\":8}"),
        Arguments.of("strings that look like other types",
            "{\"n\":\"123\",\"b\":\"true\",\"z\":\"null\",\"o\":\"{}\",\"d\":\"2030-01-01T00:00:00Z\",\"e\":\"1e5\"}"),
        Arguments.of("whitespace and key order as written", "  {\n\t\"z\" : 1 ,\r\n \"a\":[ 1 , 2 ] , \"m\":{ } }  "),
        Arguments.of("numbers in every notation",
            "{\"i\":0,\"neg\":-7,\"dec\":3.25,\"exp\":6.02e23,\"negexp\":1.5E-7,\"zero\":-0,\"big\":1E+2}"),
        Arguments.of("nesting at exactly MAX_JSON_DEPTH", nestedArrays(Limits.MAX_JSON_DEPTH)),
        Arguments.of("a large array", "[" + Stream.iterate(0, i -> i + 1).limit(5_000).map(String::valueOf)
            .collect(Collectors.joining(",")) + "]"),
        Arguments.of("a long string", "{\"s\":\"" + "abc\u00e9\ud83d\ude00".repeat(20_000) + "\"}"));
  }

  /** Numbers that a double cannot hold exactly; each must come back with the same decimal value. */
  static Stream<String> exactNumbers() {
    return Stream.of(
        "123456789012345678901234567890",
        "-123456789012345678901234567890",
        "0.1000000000000000055511151231257827",
        "9007199254740993",
        "18446744073709551616",
        "3.14159265358979323846264338327950288419716939937510582097494459",
        "1e400",
        "-2.5E-350",
        "0.000000000000000000000000000001",
        "1.0000000000000000000000000000000000001");
  }

  /** Texts that are not storable documents: a name, the text, and a fragment the rejection message must hold. */
  static Stream<Arguments> rejectedDocuments() {
    return Stream.of(
        Arguments.of("an unclosed object", "{\"a\":1", "invalid JSON"),
        Arguments.of("a trailing comma", "{\"a\":1,}", "invalid JSON"),
        Arguments.of("single quotes", "{'a':1}", "invalid JSON"),
        Arguments.of("an unquoted key", "{a:1}", "invalid JSON"),
        Arguments.of("a missing comma", "[1 2]", "invalid JSON"),
        Arguments.of("empty text", "", "invalid JSON"),
        Arguments.of("only whitespace", "   ", "invalid JSON"),
        Arguments.of("two documents", "{} {}", "invalid JSON"),
        Arguments.of("a comment", "{\"a\":1 /* note */}", "invalid JSON"),
        Arguments.of("a leading zero", "{\"n\":012}", "invalid JSON"),
        Arguments.of("a hex number", "{\"n\":0x1F}", "invalid JSON"),
        Arguments.of("a duplicate key", "{\"a\":1,\"a\":2}", "duplicate"),
        Arguments.of("NaN", "NaN", "invalid JSON"),
        Arguments.of("NaN as a member", "{\"x\":NaN}", "invalid JSON"),
        Arguments.of("Infinity", "{\"x\":Infinity}", "invalid JSON"),
        Arguments.of("-Infinity", "[-Infinity]", "invalid JSON"),
        Arguments.of("a raw U+0000 in a string", "{\"s\":\"a" + NUL + "b\"}", "invalid JSON"),
        Arguments.of("an escaped \\u0000 in a string", "{\"s\":\"a\\u0000b\"}", "0000"),
        Arguments.of("an escaped \\u0000 in a key", "{\"a\\u0000\":1}", "0000"),
        Arguments.of("an unescaped control character", "{\"s\":\"tab\there\"}", "invalid JSON"),
        Arguments.of("an escaped unpaired surrogate", "{\"s\":\"\\ud800x\"}", "surrogate"),
        Arguments.of("a raw unpaired surrogate", "{\"s\":\"" + (char) 0xDC00 + "\"}", "surrogate"),
        Arguments.of("nesting one level past MAX_JSON_DEPTH", nestedArrays(Limits.MAX_JSON_DEPTH + 1),
            "nesting depth"),
        Arguments.of("a number longer than MAX_JSON_NUMBER_LENGTH",
            "{\"n\":" + "9".repeat(Limits.MAX_JSON_NUMBER_LENGTH + 1) + "}", "number"),
        Arguments.of("an exponent no decimal holds", "{\"n\":1e99999999999}", "out of range"),
        Arguments.of("text one char longer than MAX_JSON_LENGTH",
            "\"" + "a".repeat(Limits.MAX_JSON_LENGTH - 1) + "\"", "longer"));
  }

  /**
   * Pairs of documents that hold different values although they look alike: a readable name, the stored text and the
   * text of a replay under the same event id, which must be a duplicate, not a replay.
   */
  static Stream<Arguments> differentDocuments() {
    return Stream.of(
        Arguments.of("one array element", "[1,2,3]", "[1,2,4]"),
        Arguments.of("one array element more", "[1,2]", "[1,2,2]"),
        Arguments.of("array elements swapped", "[1,2]", "[2,1]"),
        Arguments.of("one key renamed", "{\"a\":1,\"b\":2}", "{\"a\":1,\"c\":2}"),
        Arguments.of("one key more", "{\"a\":1}", "{\"a\":1,\"b\":1}"),
        Arguments.of("a key with null against no key", "{\"a\":1,\"b\":null}", "{\"a\":1}"),
        Arguments.of("values of two keys swapped", "{\"a\":1,\"b\":2}", "{\"a\":2,\"b\":1}"),
        Arguments.of("a sign", "{\"n\":5}", "{\"n\":-5}"),
        Arguments.of("the sign of a decimal", "{\"n\":0.5}", "{\"n\":-0.5}"),
        Arguments.of("an exponent's sign", "{\"n\":1e5}", "{\"n\":1e-5}"),
        Arguments.of("a decimal place", "{\"n\":0.5}", "{\"n\":0.05}"),
        Arguments.of("the last digit of a big integer",
            "{\"n\":123456789012345678901234567890}", "{\"n\":123456789012345678901234567891}"),
        Arguments.of("the last digit of a long decimal",
            "{\"n\":0.1000000000000000055511151231257827}", "{\"n\":0.1000000000000000055511151231257828}"),
        Arguments.of("a number against the same digits as a string", "{\"n\":1}", "{\"n\":\"1\"}"),
        Arguments.of("true against false deep inside", "{\"a\":{\"b\":[true]}}", "{\"a\":{\"b\":[false]}}"),
        Arguments.of("null against false", "[null]", "[false]"),
        Arguments.of("zero against false", "[0]", "[false]"),
        Arguments.of("the case of a string", "{\"s\":\"a\"}", "{\"s\":\"A\"}"),
        Arguments.of("the case of a key", "{\"s\":1}", "{\"S\":1}"),
        Arguments.of("an object against an array", "{}", "[]"),
        Arguments.of("an empty string against an empty object", "\"\"", "{}"));
  }

  /** {@code depth} arrays nested in each other around the number 1. */
  private static String nestedArrays(int depth) {
    return "[".repeat(depth) + "1" + "]".repeat(depth);
  }

  /** The value of the top-level member {@code "n"} as the store rendered it, or the whole document if a scalar. */
  private static BigDecimal numberIn(Json stored) {
    String text = stored.text().strip();
    if (!text.startsWith("{") && !text.startsWith("[")) {
      return new BigDecimal(text);
    }
    Matcher matcher = NUMBER.matcher(text);
    assertThat(matcher.find()).as("a number member \"n\" in the stored document %s", text).isTrue();
    return new BigDecimal(matcher.group(1));
  }

  /**
   * Asserts that {@code stored} holds the document {@code written}, compared as Jackson trees: the kit does not judge
   * round trips by {@link Json#equals}, the semantic equality that duplicate detection relies on and that these
   * tests must not take on trust.
   */
  private static void assertSameDocument(Json stored, Json written, String description, Object... args) {
    String what = String.format(description, args);
    assertThat(stored).as("%s: no document", what).isNotNull();
    assertThat(stored.tree()).as("%s: the document written", what).isEqualTo(written.tree());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Round trips

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#documents")
  @Tag("guarantee-2")
  @DisplayName("Event payloads come back equal from find, read and tail reads")
  void eventPayloadsRoundTrip(String name, String text) {
    String session = id("session");
    Json document = Json.of(text);
    String eventId = id("e");

    store.events().append(session, NewEvent.of("message", document).withId(eventId));
    store.events().append(session, event(id("e")));

    assertSameDocument(present(store.events().find(session, eventId), "event %s", eventId).payload(), document,
        "payload (%s) from find", name);
    assertSameDocument(store.events().read(session, EventQuery.all()).items().get(0).payload(), document,
        "payload (%s) from read", name);
    assertSameDocument(store.events().read(session, EventQuery.all().last(2)).items().get(0).payload(), document,
        "payload (%s) from a tail read", name);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#documents")
  @DisplayName("Session settings come back equal from find and from listing")
  void sessionSettingsRoundTrip(String name, String text) {
    String session = id("session");
    Json document = Json.of(text);

    store.sessions().save(SessionWrite.of(session).withSettings(document));

    assertSameDocument(present(store.sessions().find(session), "session %s", session).settings(), document,
        "settings (%s) from find", name);
    assertThat(store.sessions().list(SessionQuery.all()).items()).singleElement()
        .satisfies(listed -> assertSameDocument(listed.settings(), document, "settings (%s) from list", name));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#documents")
  @DisplayName("Run usage and error documents come back equal")
  void runDocumentsRoundTrip(String name, String text) {
    String session = id("session");
    String runId = id("run");
    Json document = Json.of(text);

    store.runs().save(RunWrite.of(runId, session).withUsage(document).withError(document));

    Run run = present(store.runs().find(session, runId), "run %s", runId);
    assertSameDocument(run.usage(), document, "run usage (%s)", name);
    assertSameDocument(run.error(), document, "run error (%s)", name);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#documents")
  @DisplayName("Tool-call arguments and results come back equal")
  void toolCallDocumentsRoundTrip(String name, String text) {
    assumeDeclared(Capability.TOOL_CALLS);
    String session = id("session");
    String call = id("call");
    Json document = Json.of(text);

    store.toolCalls().save(new ToolCallWrite(call, session, null, null, "tool", document, null));
    assertSameDocument(present(store.toolCalls().find(session, call), "tool call %s", call).arguments(), document,
        "tool arguments (%s)", name);

    store.toolCalls().resolve(session, call, ToolCallStatus.COMPLETED, document);
    assertSameDocument(present(store.toolCalls().find(session, call), "tool call %s", call).result(), document,
        "tool result (%s)", name);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#documents")
  @DisplayName("Summary content comes back equal from list and from the revival read")
  void summaryContentRoundTrips(String name, String text) {
    assumeDeclared(Capability.SUMMARIES);
    String session = id("session");
    Json document = Json.of(text);
    store.events().append(session, event(id("e")));

    store.summaries().put(session, NewSummary.of(1, 1, document));

    assertThat(store.summaries().list(session)).singleElement()
        .satisfies(summary -> assertSameDocument(summary.content(), document, "summary content (%s)", name));
    assertSameDocument(present(store.summaries().revive(session).summary(), "revival summary").content(), document,
        "summary content (%s) from revive", name);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#documents")
  @DisplayName("Model-call audit context and usage come back equal")
  void auditDocumentsRoundTrip(String name, String text) {
    assumeDeclared(Capability.MODEL_CALL_AUDIT);
    String session = id("session");
    Json document = Json.of(text);

    store.modelCalls().record(session, new NewModelCall(1, "model", document, document));

    ModelCall row = store.modelCalls().list(session).get(0);
    assertSameDocument(row.context(), document, "audit context (%s)", name);
    assertSameDocument(row.usage(), document, "audit usage (%s)", name);
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("A rejected document names the line and column of its problem")
  void aRejectionNamesWhereTheProblemIs() {
    Throwable error = catchThrowable(() -> store.events().append(id("session"),
        NewEvent.of("message", Json.of("{\n  \"a\": 1,\n  \"b\": 2,\n}"))));

    assertThat(error).as("rejection of a trailing comma on line 4").isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("at line 4, column");
  }

  @Test
  @DisplayName("Astral-plane characters come back as the same code points, not as replacement characters or CESU-8")
  void astralCharactersAreExact() {
    String session = id("session");
    String value = "\ud83d\ude00 \ud800\udc00 \udbff\udfff \ud83e\udd16";
    String eventId = id("e");

    store.events().append(session, NewEvent.of("message", Json.of("{\"s\":\"" + value + "\"}")).withId(eventId));

    Json payload = present(store.events().find(session, eventId), "event").payload();
    assertThat(payload.stringMember("s")).as("astral string member, code point by code point")
        .hasValueSatisfying(found -> assertThat(found.codePoints().toArray()).isEqualTo(value.codePoints().toArray()));
  }

  @Test
  @DisplayName("A document of exactly MAX_JSON_LENGTH chars of multi-byte text is stored whole: the bound counts chars")
  void aDocumentAtTheLengthBoundIsStored() {
    String session = id("session");
    String text = "\"" + "\u65e5".repeat(Limits.MAX_JSON_LENGTH - 2) + "\"";
    Json document = Json.of(text);
    String eventId = id("e");

    store.events().append(session, NewEvent.of("message", document).withId(eventId));

    Json stored = present(store.events().find(session, eventId), "event %s", eventId).payload();
    assertThat(stored.equals(document))
        .as("the stored document of %s chars (stored text: %s chars) equals the original", text.length(),
            stored.text().length())
        .isTrue();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Exact numbers

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#exactNumbers")
  @DisplayName("Numbers in event payloads come back exactly, as a member, in an array and as the whole document")
  void eventNumbersComeBackExactly(String literal) {
    String session = id("session");
    BigDecimal expected = new BigDecimal(literal);
    Json member = Json.of("{\"n\":" + literal + ",\"a\":[" + literal + "]}");
    Json scalar = Json.of(literal);

    store.events().append(session, NewEvent.of("message", member).withId("member"));
    store.events().append(session, NewEvent.of("message", scalar).withId("scalar"));

    Json storedMember = present(store.events().find(session, "member"), "event member").payload();
    assertThat(numberIn(storedMember)).as("number %s stored as a member, read from %s", literal, storedMember)
        .isEqualByComparingTo(expected);
    assertThat(storedMember).as("document holding %s", literal).isEqualTo(member);
    Json storedScalar = present(store.events().find(session, "scalar"), "event scalar").payload();
    assertThat(numberIn(storedScalar)).as("number %s stored as the whole document", literal)
        .isEqualByComparingTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#exactNumbers")
  @DisplayName("Numbers in settings, run usage, tool arguments and results, summaries and audit rows come back exactly")
  void numbersInEveryDocumentFieldComeBackExactly(String literal) {
    String session = id("session");
    BigDecimal expected = new BigDecimal(literal);
    Json document = Json.of("{\"n\":" + literal + "}");
    store.sessions().save(SessionWrite.of(session).withSettings(document));
    store.runs().save(RunWrite.of(session + "-run", session).withUsage(document));
    store.events().append(session, event(id("e")));

    assertThat(numberIn(present(store.sessions().find(session), "session").settings()))
        .as("%s in settings", literal).isEqualByComparingTo(expected);
    assertThat(numberIn(present(store.runs().find(session, session + "-run"), "run").usage()))
        .as("%s in run usage", literal).isEqualByComparingTo(expected);
    if (store.supports(Capability.TOOL_CALLS)) {
      store.toolCalls().save(new ToolCallWrite("call", session, null, null, "tool", document, null));
      store.toolCalls().resolve(session, "call", ToolCallStatus.COMPLETED, document);
      ToolCall call = present(store.toolCalls().find(session, "call"), "tool call");
      assertThat(numberIn(call.arguments())).as("%s in tool arguments", literal).isEqualByComparingTo(expected);
      assertThat(numberIn(call.result())).as("%s in a tool result", literal).isEqualByComparingTo(expected);
    }
    if (store.supports(Capability.SUMMARIES)) {
      store.summaries().put(session, NewSummary.of(1, 1, document));
      assertThat(numberIn(present(store.summaries().latest(session), "summary").content()))
          .as("%s in summary content", literal).isEqualByComparingTo(expected);
    }
    if (store.supports(Capability.MODEL_CALL_AUDIT)) {
      store.modelCalls().record(session, new NewModelCall(1, "model", document, document));
      ModelCall row = store.modelCalls().list(session).get(0);
      assertThat(numberIn(row.context())).as("%s in audit context", literal).isEqualByComparingTo(expected);
      assertThat(numberIn(row.usage())).as("%s in audit usage", literal).isEqualByComparingTo(expected);
    }
  }

  @Test
  @Tag("guarantee-3")
  @DisplayName("Replaying an event whose payload differs only in whitespace, key order or number notation is a replay")
  void aSemanticallyEqualPayloadIsAReplay() {
    String session = id("session");
    Event stored = store.events().append(session,
        NewEvent.of("message", Json.of("{\"b\":1,\"a\":[100,0.5]}")).withId("e-1"));

    Event replayed = store.events().append(session,
        NewEvent.of("message", Json.of(" { \"a\" : [ 1e2 , 0.50 ] , \"b\" : 1.0 } ")).withId("e-1"));

    assertThat(replayed.seq()).as("seq of a replay with an equal payload").isEqualTo(stored.seq());
    assertThat(store.events().lastSeq(session)).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#differentDocuments")
  @Tag("guarantee-3")
  @DisplayName("An event id reused with a payload that differs in one value is a duplicate, alone and in a batch")
  void aPayloadDifferingInOneValueIsADuplicate(String name, String storedText, String otherText) {
    String session = id("session");
    store.events().append(session, NewEvent.of("message", Json.of(storedText)).withId("e-1"));
    NewEvent other = NewEvent.of("message", Json.of(otherText)).withId("e-1");

    assertThat(catchThrowable(() -> store.events().append(session, other)))
        .as("append of e-1 again with a payload differing in %s", name)
        .isInstanceOf(DuplicateEventException.class);
    assertThat(catchThrowable(() -> store.events().appendAll(session, List.of(event("e-2"), other))))
        .as("a batch with e-1 again, its payload differing in %s", name)
        .isInstanceOf(DuplicateEventException.class);
    assertThat(catchThrowable(() -> store.events().appendAll(id("session"), List.of(
            NewEvent.of("message", Json.of(storedText)).withId("e-1"), other))))
        .as("a batch holding e-1 twice, the payloads differing in %s", name)
        .isInstanceOf(DuplicateEventException.class);
    assertThat(store.events().lastSeq(session)).as("last seq after the rejected duplicates").isEqualTo(1);
    assertSameText(present(store.events().find(session, "e-1"), "event e-1").payload(), storedText,
        "payload of e-1 after the rejected duplicates");
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Same bytes (guarantee 18 of docs/guarantees.md): each aggregate written and read through its simplest
  // calls, asserting the text.

  /** Documents whose text a normalizing backend would change: a readable name and the text. */
  static Stream<Arguments> verbatimDocuments() {
    return Stream.of(
        Arguments.of("keys out of alphabetical order",
            "{\"callId\":\"c-1\",\"tool\":\"weather\",\"args\":{\"z\":1,\"a\":{\"y\":2,\"b\":3}}}"),
        Arguments.of("whitespace of every kind",
            " \t{\n  \"b\" :\t[ 1 ,2 ] ,\r\n  \"a\" : { } ,\"s\":\"  spaced  \" }\n "),
        Arguments.of("escapes a printer would write literally or differently",
            "{\"s\":\"caf\\u00e9 \\/ \\ud83d\\ude00 \\u0041 \\u001F \\t\",\"\\u006b\":1}"),
        Arguments.of("literal astral-plane characters in keys and values",
            "{\"\ud83d\udd11\":\"\ud83d\ude00 \ud834\udd1e \ud841\udf0e\",\"z\":[\"\ud83c\udf55\"]}"),
        Arguments.of("equal numbers in different notations", "[100,1E+2,100.0,1e2,1.00E2,-0,0.50,1.0e-7,-0.0]"),
        Arguments.of("big and long numbers",
            "{\"big\":123456789012345678901234567890123,\"long\":0.100000000000000005551115123125782702118,"
                + "\"huge\":1e400,\"tiny\":-2.5E-350,\"max\":9223372036854775808}"),
        Arguments.of("a top-level scalar with surrounding whitespace", "  \"text\"\n"),
        Arguments.of("rendered by Json.from from a map in insertion order",
            Json.from(insertionOrdered("zeta", 1, "alpha", List.of("b", "a"), "mid", "x")).text()));
  }

  private static Map<String, Object> insertionOrdered(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  private static void assertSameText(Json stored, String written, String what) {
    assertThat(stored).as("%s: no document", what).isNotNull();
    assertThat(stored.text()).as("%s: the text written, byte for byte", what).isEqualTo(written);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#verbatimDocuments")
  @Tag("guarantee-18")
  @DisplayName("An event payload reads back with exactly the text written, from find, read and tail reads")
  void eventPayloadsKeepTheirText(String name, String text) {
    String session = id("session");
    String eventId = id("e");

    Event appended = store.events().append(session, NewEvent.of("message", Json.of(text)).withId(eventId));

    assertSameText(appended.payload(), text, "payload (" + name + ") returned by append");
    assertSameText(present(store.events().find(session, eventId), "event %s", eventId).payload(), text,
        "payload (" + name + ") from find");
    assertSameText(store.events().read(session, EventQuery.all()).items().get(0).payload(), text,
        "payload (" + name + ") from read");
    assertSameText(store.events().read(session, EventQuery.all().last(1)).items().get(0).payload(), text,
        "payload (" + name + ") from a tail read");
  }

  @Test
  @Tag("guarantee-18")
  @DisplayName("A replay with an equal payload in other text returns the stored event with the text first written")
  void aReplayReturnsTheTextFirstWritten() {
    String session = id("session");
    String first = "{\"b\":1,\"a\":[100,0.5]}";
    store.events().append(session, NewEvent.of("message", Json.of(first)).withId("e-1"));

    Event replayed = store.events().append(session,
        NewEvent.of("message", Json.of(" { \"a\" : [ 1e2 , 0.50 ] , \"b\" : 1.0 } ")).withId("e-1"));

    assertSameText(replayed.payload(), first, "payload of the event a replay returns");
    assertSameText(present(store.events().find(session, "e-1"), "event e-1").payload(), first,
        "payload stored after the replay");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#verbatimDocuments")
  @Tag("guarantee-18")
  @DisplayName("Session settings read back with exactly the text written, from find and from listing")
  void sessionSettingsKeepTheirText(String name, String text) {
    String session = id("session");

    store.sessions().save(SessionWrite.of(session).withSettings(Json.of(text)));

    assertSameText(present(store.sessions().find(session), "session %s", session).settings(), text,
        "settings (" + name + ") from find");
    assertSameText(store.sessions().list(SessionQuery.all()).items().get(0).settings(), text,
        "settings (" + name + ") from list");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#verbatimDocuments")
  @Tag("guarantee-18")
  @DisplayName("Run usage and error read back with exactly the text written")
  void runDocumentsKeepTheirText(String name, String text) {
    String session = id("session");
    String runId = id("run");

    store.runs().save(RunWrite.of(runId, session).withUsage(Json.of(text)).withError(Json.of(text)));

    Run run = present(store.runs().find(session, runId), "run %s", runId);
    assertSameText(run.usage(), text, "run usage (" + name + ")");
    assertSameText(run.error(), text, "run error (" + name + ")");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#verbatimDocuments")
  @Tag("guarantee-18")
  @DisplayName("Tool-call arguments and results read back with exactly the text written")
  void toolCallDocumentsKeepTheirText(String name, String text) {
    assumeDeclared(Capability.TOOL_CALLS);
    String session = id("session");
    String call = id("call");

    store.toolCalls().save(ToolCallWrite.of(call, session, "tool").withArguments(Json.of(text)));
    assertSameText(present(store.toolCalls().find(session, call), "tool call %s", call).arguments(), text,
        "tool arguments (" + name + ")");
    store.toolCalls().resolve(session, call, ToolCallStatus.COMPLETED, Json.of(text));

    ToolCall resolved = present(store.toolCalls().find(session, call), "tool call %s", call);
    assertSameText(resolved.result(), text, "tool result (" + name + ")");
    assertSameText(resolved.arguments(), text, "tool arguments (" + name + ") after the resolve");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#verbatimDocuments")
  @Tag("guarantee-18")
  @DisplayName("Summary content reads back with exactly the text written, from list and from the revival read")
  void summaryContentKeepsItsText(String name, String text) {
    assumeDeclared(Capability.SUMMARIES);
    String session = id("session");
    store.events().append(session, event(id("e")));

    store.summaries().put(session, NewSummary.of(1, 1, Json.of(text)));

    assertSameText(store.summaries().list(session).get(0).content(), text, "summary content (" + name + ")");
    assertSameText(present(store.summaries().revive(session).summary(), "revival summary").content(), text,
        "summary content (" + name + ") from revive");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#verbatimDocuments")
  @Tag("guarantee-18")
  @DisplayName("Model-call audit context and usage read back with exactly the text written")
  void auditDocumentsKeepTheirText(String name, String text) {
    assumeDeclared(Capability.MODEL_CALL_AUDIT);
    String session = id("session");

    store.modelCalls().record(session, new NewModelCall(1, "model", Json.of(text), Json.of(text)));

    ModelCall row = store.modelCalls().list(session).get(0);
    assertSameText(row.context(), text, "audit context (" + name + ")");
    assertSameText(row.usage(), text, "audit usage (" + name + ")");
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Missing documents

  @Test
  @DisplayName("An event appended without a payload has the empty object as its payload")
  void aMissingEventPayloadIsTheEmptyObject() {
    String session = id("session");

    store.events().append(session, NewEvent.of("started").withId("e-1"));

    Json payload = present(store.events().find(session, "e-1"), "event e-1").payload();
    assertThat(payload).as("payload of an event appended without one").isEqualTo(Json.emptyObject());
    assertThat(payload.isObject()).isTrue();
  }

  @Test
  @DisplayName("Settings and run usage left out are the empty object; a run error left out stays absent")
  void missingSessionAndRunDocumentsAreTheEmptyObject() {
    String session = id("session");
    String runId = id("run");

    store.sessions().save(SessionWrite.of(session));
    store.runs().save(RunWrite.of(runId, session));

    assertThat(present(store.sessions().find(session), "session").settings()).isEqualTo(Json.emptyObject());
    Run run = present(store.runs().find(session, runId), "run");
    assertThat(run.usage()).isEqualTo(Json.emptyObject());
    assertThat(run.error()).as("error of a run saved without one").isNull();
  }

  @Test
  @DisplayName("Tool arguments left out and a resolve without a result are the empty object")
  void missingToolDocumentsAreTheEmptyObject() {
    assumeDeclared(Capability.TOOL_CALLS);
    String call = id("call");
    String session = id("session");

    store.toolCalls().save(ToolCallWrite.of(call, session, "tool"));
    assertThat(present(store.toolCalls().find(session, call), "call").arguments()).isEqualTo(Json.emptyObject());
    store.toolCalls().resolve(session, call, ToolCallStatus.COMPLETED, null);

    assertThat(present(store.toolCalls().find(session, call), "call").result()).isEqualTo(Json.emptyObject());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Rejections

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#rejectedDocuments")
  @Tag("guarantee-15")
  @DisplayName("A text that is not a storable document is rejected before the append; the log is unchanged and serving")
  void unstorableDocumentsAreRejected(String name, String text, String mentions) {
    String session = id("session");
    Event before = store.events().append(session, event(id("before")));

    Throwable thrown = catchThrowable(() -> store.events().append(session, NewEvent.of("message", Json.of(text))));

    assertThat(thrown).as("what parsing %s threw", name).isInstanceOf(InvalidArgumentException.class);
    assertThat(((InvalidArgumentException) thrown).field()).as("field named for %s", name).isEqualTo("json");
    assertThat(thrown.getMessage()).as("message for %s", name).containsIgnoringCase(mentions);
    assertThat(Events.readAll(store.events(), session)).as("log after rejecting %s", name).containsExactly(before);
    assertThat(store.events().append(session, event(id("after"))).seq()).as("seq of the next valid append")
        .isEqualTo(2);
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Hostile nesting a hundred thousand levels deep is rejected with a typed error, never a stack overflow")
  void hostileNestingIsRejectedWithoutStackOverflow() {
    int depth = 100_000;
    List<String> hostile = List.of(
        "[".repeat(depth) + "]".repeat(depth),
        "{\"a\":".repeat(depth) + "1" + "}".repeat(depth),
        "[{\"a\":".repeat(depth / 2),
        "[".repeat(depth));

    for (String text : hostile) {
      Throwable thrown = catchThrowable(() -> store.sessions().save(SessionWrite.of(id("s")).withSettings(
          Json.of(text))));
      assertThat(thrown).as("what a %s-char hostile document threw", text.length())
          .isInstanceOf(InvalidArgumentException.class);
    }
    assertThat(store.sessions().list(SessionQuery.all()).items()).as("sessions after hostile settings").isEmpty();
  }

  @Test
  @Tag("guarantee-15")
  @DisplayName("Metadata keys and values containing U+0000 are rejected, naming the field, and no session is saved")
  void metadataWithNulIsRejected() {
    String session = id("session");

    Throwable value = catchThrowable(
        () -> store.sessions().save(SessionWrite.of(session).withMetadata("k", "a" + NUL + "b")));
    Throwable key = catchThrowable(
        () -> store.sessions().save(SessionWrite.of(session).withMetadata("k" + NUL, "v")));

    assertThat(value).isInstanceOf(InvalidArgumentException.class);
    assertThat(((InvalidArgumentException) value).field()).isEqualTo("session.metadata[k]");
    assertThat(key).isInstanceOf(InvalidArgumentException.class);
    assertThat(((InvalidArgumentException) key).field()).startsWith("session.metadata");
    assertThat(store.sessions().find(session)).as("session after rejected metadata").isEmpty();
  }

  /**
   * The methods of the optional aggregates (and of forks and truncation) that take an id as a plain string: a name,
   * the parameter the rejection must name, the capabilities it needs, and the call. The core event-log, session and
   * run methods are covered the same way by the bad-input group.
   */
  static Stream<Arguments> idMethods() {
    Instant later = TestClock.START.plusSeconds(60);
    return Stream.of(
        idMethod("events().truncate(sessionId, fromSeq)", "sessionId", Set.of(Capability.TRUNCATION),
            (store, existing, bad) -> store.events().truncate(bad, 1)),
        idMethod("sessions().fork(sessionId, atSeq)", "sessionId", Set.of(Capability.FORKS),
            (store, existing, bad) -> store.sessions().fork(bad, 1)),
        idMethod("sessions().fork(sessionId, atSeq, newSessionId) with a bad newSessionId", "newSessionId",
            Set.of(Capability.FORKS), (store, existing, bad) -> store.sessions().fork(existing, 1, bad)),
        idMethod("summaries().put(sessionId, summary)", "sessionId", Set.of(Capability.SUMMARIES),
            (store, existing, bad) -> store.summaries().put(bad, NewSummary.of(1, 1, Json.emptyObject()))),
        idMethod("summaries().latest(sessionId)", "sessionId", Set.of(Capability.SUMMARIES),
            (store, existing, bad) -> store.summaries().latest(bad)),
        idMethod("summaries().list(sessionId)", "sessionId", Set.of(Capability.SUMMARIES),
            (store, existing, bad) -> store.summaries().list(bad)),
        idMethod("summaries().revive(sessionId)", "sessionId", Set.of(Capability.SUMMARIES),
            (store, existing, bad) -> store.summaries().revive(bad)),
        idMethod("summaries().chapter(sessionId, summaryToSeq)", "sessionId", Set.of(Capability.SUMMARIES),
            (store, existing, bad) -> store.summaries().chapter(bad, 1)),
        idMethod("modelCalls().record(sessionId, call)", "sessionId", Set.of(Capability.MODEL_CALL_AUDIT),
            (store, existing, bad) -> store.modelCalls().record(bad, NewModelCall.of(1, "m", Json.emptyObject()))),
        idMethod("modelCalls().list(sessionId)", "sessionId", Set.of(Capability.MODEL_CALL_AUDIT),
            (store, existing, bad) -> store.modelCalls().list(bad)),
        idMethod("modelCalls().deleteOlderThan(sessionId, age)", "sessionId", Set.of(Capability.MODEL_CALL_AUDIT),
            (store, existing, bad) -> store.modelCalls().deleteOlderThan(bad, Duration.ZERO)),
        idMethod("toolCalls().find(session, toolCallId)", "toolCallId", Set.of(Capability.TOOL_CALLS),
            (store, existing, bad) -> store.toolCalls().find(existing, bad)),
        idMethod("toolCalls().pending(sessionId)", "sessionId", Set.of(Capability.TOOL_CALLS),
            (store, existing, bad) -> store.toolCalls().pending(bad)),
        idMethod("toolCalls().resolve(session, toolCallId, status, result)", "toolCallId", Set.of(Capability.TOOL_CALLS),
            (store, existing, bad) -> store.toolCalls().resolve(existing, bad, ToolCallStatus.COMPLETED, null)),
        idMethod("toolCalls().expireAt(session, toolCallId, deadline)", "toolCallId",
            Set.of(Capability.TOOL_CALLS, Capability.DEADLINES),
            (store, existing, bad) -> store.toolCalls().expireAt(existing, bad, later)),
        idMethod("toolCalls().expireAfter(session, toolCallId, timeout)", "toolCallId",
            Set.of(Capability.TOOL_CALLS, Capability.DEADLINES),
            (store, existing, bad) -> store.toolCalls().expireAfter(existing, bad, Duration.ofSeconds(5))),
        idMethod("toolCalls().cancelDeadline(session, toolCallId)", "toolCallId",
            Set.of(Capability.TOOL_CALLS, Capability.DEADLINES),
            (store, existing, bad) -> store.toolCalls().cancelDeadline(existing, bad)));
  }

  /** A store call given {@code store}, the id of an existing session with one event, and the bad id. */
  interface IdMethod {
    Object call(SessionStore store, String existingSession, String badId);
  }

  private static Arguments idMethod(String name, String field, Set<Capability> capabilities, IdMethod method) {
    return Arguments.of(name, field, capabilities, method);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.sessionstore.conformance.PayloadContract#idMethods")
  @Tag("guarantee-15")
  @DisplayName("A store method given an id containing U+0000 throws InvalidArgumentException naming the parameter, "
      + "and writes nothing")
  void idsWithNulAreRejected(String name, String field, Set<Capability> capabilities, IdMethod method) {
    assumeDeclared(capabilities.toArray(Capability[]::new));
    String existing = id("session");
    Event before = store.events().append(existing, event(id("before")));

    Throwable thrown = catchThrowable(() -> method.call(store, existing, BAD_ID));

    assertThat(thrown).as("what %s threw for an id containing U+0000", name)
        .isInstanceOf(InvalidArgumentException.class);
    assertThat(((InvalidArgumentException) thrown).field()).as("the field the error of %s names", name)
        .isEqualTo(field);
    assertThat(store.sessions().list(SessionQuery.all()).items()).extracting(Session::id)
        .as("sessions after %s was rejected", name).containsExactly(existing);
    assertThat(Events.readAll(store.events(), existing)).as("log after %s was rejected", name)
        .containsExactly(before);
    assertThat(store.events().append(existing, event(id("after"))).seq()).as("the store serving afterwards")
        .isEqualTo(2);
  }
}
