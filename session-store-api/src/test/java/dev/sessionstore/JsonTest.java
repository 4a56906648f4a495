package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTest {

  record Forecast(String city, int highC, BigDecimal rainMm) {}

  record Wrapper(String label, Object value) {}

  private static String nested(int depth) {
    return "[".repeat(depth) + "]".repeat(depth);
  }

  private static String nestedObjects(int depth) {
    return "{\"a\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
  }

  @Nested
  @DisplayName("of(text) accepts RFC 8259 documents and keeps their text verbatim")
  class Valid {

    @ParameterizedTest
    @ValueSource(strings = {
        "{}", "[]", "0", "-0", "1.5", "-1.5e-3", "1E+2", "true", "false", "null", "\"text\"",
        " \t\r\n{ \"a\" : [ 1 , 2 , { } ] } \n",
        "{\"escapes\":\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83d\\ude00\"}",
        "{\"emoji\":\"\ud83d\ude00\"}",
        "[\"\u2028\u2029\"]",
        "{\"z\":1,\"a\":2,\"m\":{\"y\":[],\"b\":null}}"
    })
    void keepsTheTextVerbatim(String text) {
      Json json = Json.of(text);

      assertThat(json.text()).isEqualTo(text);
      assertThat(json).hasToString(text);
    }

    @Test
    void emptyObjectIsAnObject() {
      assertThat(Json.emptyObject().text()).isEqualTo("{}");
      assertThat(Json.emptyObject().isObject()).isTrue();
      assertThat(Json.of("  {\"a\":1}").isObject()).isTrue();
      assertThat(Json.of("[{}]").isObject()).isFalse();
      assertThat(Json.of("\"{\"").isObject()).isFalse();
    }

    @Test
    void keepsBigIntegersAndLongDecimalsExactly() {
      String big = "123456789012345678901234567890123456789012345678901234567890";
      String decimal = "0.1000000000000000055511151231257827021181583404541015625000001";
      Json json = Json.of("{\"big\":" + big + ",\"decimal\":" + decimal + ",\"long\":9223372036854775808}");

      assertThat(json.tree().get("big").bigIntegerValue()).isEqualTo(new BigInteger(big));
      assertThat(json.tree().get("decimal").decimalValue()).isEqualTo(new BigDecimal(decimal));
      assertThat(json).isNotEqualTo(Json.of("{\"big\":" + big + ",\"decimal\":0.1,\"long\":9223372036854775808}"));
      assertThat(json).isNotEqualTo(Json.of("{\"big\":" + big + ",\"decimal\":" + decimal
          + ",\"long\":9223372036854775807}"));
    }

    @Test
    void acceptsExponentsEveryDecimalHolds() {
      assertThat(Json.of("1e999999999").text()).isEqualTo("1e999999999");
      assertThat(Json.of("-2.5e-999999999").text()).isEqualTo("-2.5e-999999999");
      assertThat(Json.of("0e999999999")).isEqualTo(Json.of("0"));
    }
  }

  @Nested
  @DisplayName("rejects what is not a storable document, naming the field and the place")
  class Invalid {

    @ParameterizedTest
    @ValueSource(strings = {
        "", " ", "NaN", "-NaN", "Infinity", "-Infinity", "[NaN]", "{\"a\":Infinity}",
        "[1,]", "{\"a\":1,}", "[,1]", "{,}", "[1 2]",
        "01", "-01", "[00]", "{\"a\":007}", "1.", ".5", "+1", "1e", "1e+", "-", "0x10",
        "{\"a\":1,\"a\":2}", "{\"a\":{\"b\":1,\"b\":1}}",
        "{a:1}", "{'a':1}", "['a']", "{\"a\"}", "{\"a\":}", "[", "]", "{", "}", "[1]]", "{} {}", "1 2",
        "tru", "nul", "True", "undefined", "\"unterminated", "\"bad \\x escape\"", "\"\\u12\"", "\"\\uzzzz\"",
        "\"tab\there\"", "\"line\nbreak\"", "// comment\n{}", "{}/**/", "# comment\n{}",
        "1e99999999999", "[1e-99999999999]"
    })
    void rejectsInvalidText(String text) {
      assertThatThrownBy(() -> Json.parse("event.payload", text))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageStartingWith("event.payload: invalid JSON")
          .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("event.payload"));
    }

    @Test
    void givesJacksonsLineAndColumn() {
      assertThatThrownBy(() -> Json.parse("event.payload", "{\n  \"a\": 1,\n  \"b\": tru\n}"))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("line 3, column");
    }

    @Test
    void rejectsNull() {
      assertThatThrownBy(() -> Json.of(null))
          .isInstanceOf(InvalidArgumentException.class)
          .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("json"));
    }

    @Test
    void rejectsDuplicateKeysWithTheKeyInTheMessage() {
      assertThatThrownBy(() -> Json.of("{\"model\":\"a\",\"other\":1,\"model\":\"a\"}"))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("Duplicate")
          .hasMessageContaining("model");
    }

    @Test
    void rejectsNulCharacterRawAndEscapedInStringsAndKeys() {
      assertThatThrownBy(() -> Json.of("\"a\u0000b\"")).isInstanceOf(InvalidArgumentException.class);
      assertThatThrownBy(() -> Json.of("{\"a\":\"x\\u0000\"}"))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("string")
          .hasMessageContaining("U+0000")
          .hasMessageContaining("line 1, column 6");
      assertThatThrownBy(() -> Json.of("{\"k\\u0000\":1}"))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("key")
          .hasMessageContaining("U+0000");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"", "\"\\ud83dx\"", "\"\\ude00\\ud83d\"",
        "\"\ud83d\"", "\"\ude00\"", "\"\ud83dx\"", "{\"\ud83d\":1}", "{\"\\udc00\":1}"
    })
    void rejectsUnpairedSurrogates(String text) {
      assertThatThrownBy(() -> Json.of(text))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("surrogate");
    }
  }

  @Nested
  @DisplayName("bounds depth, length and numbers")
  class Bounds {

    @Test
    void acceptsNestingAtExactlyTheMaximumDepth() {
      assertThat(Json.of(nested(Limits.MAX_JSON_DEPTH)).text()).hasSize(2 * Limits.MAX_JSON_DEPTH);
      assertThat(Json.of(nestedObjects(Limits.MAX_JSON_DEPTH)).isObject()).isTrue();
    }

    @Test
    void rejectsNestingOneLevelDeeper() {
      assertThatThrownBy(() -> Json.of(nested(Limits.MAX_JSON_DEPTH + 1)))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("nesting depth");
      assertThatThrownBy(() -> Json.of(nestedObjects(Limits.MAX_JSON_DEPTH + 1)))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("nesting depth");
    }

    @Test
    void rejectsHostileNestingWithoutStackOverflow() {
      int depth = 100_000;

      assertThatThrownBy(() -> Json.of(nested(depth))).isInstanceOf(InvalidArgumentException.class);
      assertThatThrownBy(() -> Json.of("[".repeat(depth))).isInstanceOf(InvalidArgumentException.class);
      assertThatThrownBy(() -> Json.of("{\"a\":".repeat(depth) + "1" + "}".repeat(depth)))
          .isInstanceOf(InvalidArgumentException.class);
      assertThatThrownBy(() -> Json.of("[{\"a\":".repeat(depth / 2))).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void rejectsObjectsNestedDeeperThanTheBound() {
      Object value = "leaf";
      for (int i = 0; i < Limits.MAX_JSON_DEPTH + 1; i++) {
        value = List.of(value);
      }
      Object deep = value;

      assertThatThrownBy(() -> Json.from(deep))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("nesting depth");
    }

    @Test
    void boundsNumberLength() {
      String longest = "1" + "0".repeat(Limits.MAX_JSON_NUMBER_LENGTH - 1);
      String tooLong = longest + "0";

      assertThat(Json.of("[" + longest + "]").text()).contains(longest);
      assertThat(Json.of("0." + "1".repeat(Limits.MAX_JSON_NUMBER_LENGTH)).text()).startsWith("0.1");
      assertThatThrownBy(() -> Json.of("[" + tooLong + "]"))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("Number value length");
      assertThatThrownBy(() -> Json.of("0." + "1".repeat(Limits.MAX_JSON_NUMBER_LENGTH + 1)))
          .isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void rejectsHugeNumbersQuickly() {
      String hugeInteger = "9".repeat(Limits.MAX_JSON_LENGTH - 10);
      String tinyFraction = "0." + "0".repeat(Limits.MAX_JSON_LENGTH - 10) + "1";

      assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
        assertThatThrownBy(() -> Json.of(hugeInteger)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> Json.of(tinyFraction)).isInstanceOf(InvalidArgumentException.class);
      });
    }

    @Test
    void acceptsTextOfExactlyTheMaximumLength() {
      String text = "\"" + "x".repeat(Limits.MAX_JSON_LENGTH - 2) + "\"";

      assertThat(Json.of(text).text()).hasSize(Limits.MAX_JSON_LENGTH);
    }

    @Test
    void rejectsTextOneCharLonger() {
      String text = "\"" + "x".repeat(Limits.MAX_JSON_LENGTH - 1) + "\"";

      assertThatThrownBy(() -> Json.parse("summary.content", text))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("longer than " + Limits.MAX_JSON_LENGTH)
          .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("summary.content"));
    }
  }

  @Nested
  @DisplayName("compares by value")
  class Equality {

    @Test
    void ignoresWhitespaceAndKeyOrder() {
      Json compact = Json.of("{\"a\":1,\"b\":[true,null,\"x\"],\"c\":{\"d\":\"e\",\"f\":2}}");
      Json spaced = Json.of(" {\n \"c\" : { \"f\" : 2 , \"d\" : \"e\" } ,\t\"b\" : [ true , null , \"x\" ], \"a\":1 }");

      assertThat(spaced).isEqualTo(compact);
      assertThat(spaced.hashCode()).isEqualTo(compact.hashCode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"100", "1e2", "1E2", "1E+2", "100.0", "100.000", "10e1", "1000e-1", "0.1e3"})
    void treatsEqualNumbersInAnyNotationAsEqual(String notation) {
      Json hundred = Json.of("{\"n\":100}");
      Json other = Json.of("{\"n\":" + notation + "}");

      assertThat(other).isEqualTo(hundred);
      assertThat(other.hashCode()).isEqualTo(hundred.hashCode());
      assertThat(other.text()).contains(notation);
    }

    @Test
    void treatsEveryZeroAsEqual() {
      Json zeros = Json.of("[0, -0, 0.0, 0e10, -0.000]");

      assertThat(zeros).isEqualTo(Json.of("[0,0,0,0,0]"));
      assertThat(zeros.hashCode()).isEqualTo(Json.of("[0,0,0,0,0]").hashCode());
    }

    @Test
    void comparesLongNumbersByValue() {
      String trailingZeros = "1." + "0".repeat(900);

      assertThat(Json.of(trailingZeros)).isEqualTo(Json.of("1"));
      assertThat(Json.of(trailingZeros).hashCode()).isEqualTo(Json.of("1").hashCode());
      assertThat(Json.of("12" + "0".repeat(900) + "e-899")).isEqualTo(Json.of("120"));
    }

    @Test
    void comparesEscapedAndLiteralCharactersAsTheSameString() {
      Json escaped = Json.of("{\"k\":\"caf\\u00e9 \\ud83d\\ude00 \\/\"}");
      Json literal = Json.of("{\"k\":\"café \ud83d\ude00 /\"}");

      assertThat(escaped).isEqualTo(literal);
      assertThat(escaped.hashCode()).isEqualTo(literal.hashCode());
    }

    /** What a reused event id must not pass for a replay with: each pair differs in exactly one value. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "one array element   | {\"a\":[1,2,3]}         | {\"a\":[1,2,4]}",
        "array order         | {\"a\":[1,2]}           | {\"a\":[2,1]}",
        "an extra element    | {\"a\":[1,2]}           | {\"a\":[1,2,2]}",
        "one key             | {\"a\":1,\"b\":2}       | {\"a\":1,\"c\":2}",
        "a missing key       | {\"a\":1,\"b\":null}    | {\"a\":1}",
        "key case            | {\"a\":1}               | {\"A\":1}",
        "a sign              | {\"n\":5}               | {\"n\":-5}",
        "a decimal's sign    | {\"n\":0.5}             | {\"n\":-0.5}",
        "an exponent's sign  | {\"n\":1e5}             | {\"n\":1e-5}",
        "an exponent's digit | {\"n\":1e5}             | {\"n\":1e6}",
        "a last decimal      | {\"n\":0.1000000000000000000001} | {\"n\":0.1000000000000000000002}",
        "number and string   | {\"n\":1}               | {\"n\":\"1\"}",
        "null and false      | {\"n\":null}            | {\"n\":false}",
        "nested value        | {\"a\":{\"b\":{\"c\":1}}} | {\"a\":{\"b\":{\"c\":2}}}",
        "composed and decomposed é | \"\\u00e9\"       | \"e\\u0301\"",
    })
    void distinguishesDocumentsThatDifferInOneValue(String difference, String left, String right) {
      Json one = Json.of(left);
      Json other = Json.of(right);

      assertThat(one).as(difference).isNotEqualTo(other);
      assertThat(other).as(difference).isNotEqualTo(one);
    }

    @Test
    void isNeverEqualToText() {
      assertThat(Json.of("{}")).isNotEqualTo("{}");
    }
  }

  @Nested
  @DisplayName("from(value) renders compact text through Jackson")
  class FromValues {

    @Test
    void rendersAMapInItsIterationOrder() {
      Map<String, Object> payload = new LinkedHashMap<>();
      payload.put("callId", "c-1");
      payload.put("tool", "weather");
      payload.put("args", Map.of("city", "Lisbon"));

      Json json = Json.from(payload);

      assertThat(json.text()).isEqualTo("{\"callId\":\"c-1\",\"tool\":\"weather\",\"args\":{\"city\":\"Lisbon\"}}");
    }

    @Test
    void escapesUserTextThatWouldBreakConcatenatedJson() {
      String hostile = "say \"hi\", \"admin\":true} \\ \n";

      Json json = Json.from(Map.of("text", hostile));

      assertThat(json.as(new TypeReference<Map<String, String>>() { })).containsExactly(Map.entry("text", hostile));
      assertThat(json.tree().size()).isEqualTo(1);
    }

    @Test
    void rendersRecordsListsAndScalars() {
      assertThat(Json.from(new Forecast("Lisbon", 24, new BigDecimal("0.10"))).text())
          .isEqualTo("{\"city\":\"Lisbon\",\"highC\":24,\"rainMm\":0.10}");
      assertThat(Json.from(List.of(1, "two", true)).text()).isEqualTo("[1,\"two\",true]");
      assertThat(Json.from("a \"quoted\" string").text()).isEqualTo("\"a \\\"quoted\\\" string\"");
      assertThat(Json.from(new BigInteger("123456789012345678901234567890")).text())
          .isEqualTo("123456789012345678901234567890");
      assertThat(Json.from(false).text()).isEqualTo("false");
    }

    @Test
    void rendersATreeAndReturnsAJsonAsIs() {
      ObjectNode tree = JsonMapper.builder().build().createObjectNode().put("z", 1).put("a", "x");
      Json json = Json.of(" { \"a\" : 1 } ");

      assertThat(Json.from(tree).text()).isEqualTo("{\"z\":1,\"a\":\"x\"}");
      assertThat(Json.from(json)).isSameAs(json);
    }

    @Test
    void writesANestedJsonAsTheDocumentItHolds() {
      Json inner = Json.of("{\"b\":[1,2],\"a\":0.10}");

      Json outer = Json.from(new Wrapper("x", inner));

      assertThat(outer.text()).isEqualTo("{\"label\":\"x\",\"value\":{\"b\":[1,2],\"a\":0.10}}");
    }

    @Test
    void usesTheCallersMapperForMappingOnly() {
      ObjectMapper snakeCase = JsonMapper.builder()
          .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .build();

      Json json = Json.from(new Forecast("Porto", 19, BigDecimal.ONE), snakeCase);

      assertThat(json.tree().fieldNames()).toIterable().containsExactly("city", "high_c", "rain_mm");
      assertThat(json.text()).contains("\n");
      assertThat(json.as(Forecast.class, snakeCase)).isEqualTo(new Forecast("Porto", 19, BigDecimal.ONE));
    }

    @Test
    void validatesWhatTheCallersMapperWrites() {
      ObjectMapper typing = JsonMapper.builder()
          .activateDefaultTyping(BasicPolymorphicTypeValidator.builder().allowIfBaseType(Object.class).build(),
              ObjectMapper.DefaultTyping.EVERYTHING, JsonTypeInfo.As.PROPERTY)
          .build();
      List<Object> deep = new ArrayList<>();
      List<Object> level = deep;
      for (int i = 0; i < Limits.MAX_JSON_DEPTH; i++) {
        List<Object> next = new ArrayList<>();
        level.add(next);
        level = next;
      }

      assertThatThrownBy(() -> Json.from(Map.of("s", "a\u0000b"), typing))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("U+0000");
      assertThatThrownBy(() -> Json.from(deep, typing))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("nesting depth");
    }

    @Test
    void rejectsWhatIsNotStorable() {
      assertThatThrownBy(() -> Json.from(null))
          .isInstanceOf(InvalidArgumentException.class)
          .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("json"));
      assertThatThrownBy(() -> Json.from(Map.of("x", Double.NaN))).isInstanceOf(InvalidArgumentException.class);
      assertThatThrownBy(() -> Json.from(List.of(Double.POSITIVE_INFINITY)))
          .isInstanceOf(InvalidArgumentException.class);
      assertThatThrownBy(() -> Json.from(new Object()))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("java.lang.Object");
      assertThatThrownBy(() -> Json.from(Map.of("k", "v"), null))
          .isInstanceOf(InvalidArgumentException.class)
          .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("mapper"));
    }
  }

  @Nested
  @DisplayName("reads back as trees and mapped objects")
  class Reading {

    @Test
    void mapsToRecordsAndGenericTypes() {
      Json json = Json.of("[{\"city\":\"Lisbon\",\"highC\":24,\"rainMm\":0.25}]");

      assertThat(json.as(new TypeReference<List<Forecast>>() { }))
          .containsExactly(new Forecast("Lisbon", 24, new BigDecimal("0.25")));
      assertThat(Json.of("{\"city\":\"Faro\",\"highC\":30,\"rainMm\":0}").as(Forecast.class))
          .isEqualTo(new Forecast("Faro", 30, BigDecimal.ZERO));
    }

    @Test
    void untypedTargetsGetExactNumbers() {
      Map<?, ?> map = Json.of("{\"f\":0.1000000000000000055511151231257827,\"i\":7,"
          + "\"big\":123456789012345678901234567890}").as(Map.class);

      assertThat(map.get("f")).isEqualTo(new BigDecimal("0.1000000000000000055511151231257827"));
      assertThat(map.get("i")).isEqualTo(7);
      assertThat(map.get("big")).isEqualTo(new BigInteger("123456789012345678901234567890"));
    }

    @Test
    void unknownPropertiesAreIgnoredByDefaultAndRejectedWhenStrict() {
      Json newer = Json.of("{\"city\":\"Lisbon\",\"highC\":24,\"rainMm\":1,\"windKmh\":12}");

      assertThat(newer.as(Forecast.class)).as("a payload with a field the record lacks")
          .isEqualTo(new Forecast("Lisbon", 24, BigDecimal.ONE));
      assertThat(Json.of("[" + newer.text() + "]").as(new TypeReference<List<Forecast>>() { }))
          .containsExactly(new Forecast("Lisbon", 24, BigDecimal.ONE));
      assertThatThrownBy(() -> newer.asStrict(Forecast.class))
          .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("type"))
          .hasMessageContaining("windKmh").hasMessageContaining("Forecast");
      assertThatThrownBy(() -> Json.of("[" + newer.text() + "]").asStrict(new TypeReference<List<Forecast>>() { }))
          .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("windKmh");
      assertThat(Json.of("{\"city\":\"Faro\",\"highC\":30,\"rainMm\":0}").asStrict(Forecast.class))
          .isEqualTo(new Forecast("Faro", 30, BigDecimal.ZERO));
    }

    @ParameterizedTest
    @ValueSource(strings = {"NaN", "[Infinity]", "{\"a\":+1}", "[.5]", "[1] // c", "/* c */ [1]", "{'a':1}",
        "[1,]", "[01]", "{\"a\":1,\"a\":2}"})
    void parseErrorsAreInTheLibrarysOwnWordsKeepingTheCause(String text) {
      assertThatThrownBy(() -> Json.of(text))
          .isInstanceOfSatisfying(InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("json"))
          .hasMessageStartingWith("json: invalid JSON")
          .hasMessageNotContaining("enable").hasMessageNotContaining("Feature").hasMessageNotContaining("`")
          .hasMessageNotContaining("StreamReadConstraints")
          .hasCauseInstanceOf(com.fasterxml.jackson.core.JsonProcessingException.class);
    }

    @Test
    void tooDeepADocumentIsWordedByTheLibrary() {
      String deep = "[".repeat(Limits.MAX_JSON_DEPTH + 1) + "]".repeat(Limits.MAX_JSON_DEPTH + 1);
      assertThatThrownBy(() -> Json.of(deep)).isInstanceOf(InvalidArgumentException.class)
          .hasMessageNotContaining("StreamReadConstraints").hasMessageNotContaining("`");
    }

    @Test
    void aDocumentThatDoesNotMapIsAnInvalidType() {
      assertThatThrownBy(() -> Json.of("{\"city\":\"Lisbon\",\"wind\":\"x\"}").asStrict(Forecast.class))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("Forecast")
          .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("type"));
      assertThatThrownBy(() -> Json.of("[1]").as((Class<?>) null))
          .isInstanceOf(InvalidArgumentException.class)
          .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("type"));
    }

    @Test
    void theTreeIsTheCallersCopy() {
      Json json = Json.of("{\"a\":{\"b\":[1]},\"n\":100.0}");
      JsonNode tree = json.tree();

      ((ObjectNode) tree).put("added", true);
      ((ObjectNode) tree.get("a")).removeAll();

      assertThat(json.text()).isEqualTo("{\"a\":{\"b\":[1]},\"n\":100.0}");
      assertThat(json.tree().get("a").get("b").get(0).intValue()).isEqualTo(1);
      assertThat(json.tree().has("added")).isFalse();
      assertThat(json.tree().get("n").decimalValue()).isEqualTo(new BigDecimal("100.0"));
    }
  }

  @Nested
  @DisplayName("stringMember")
  class StringMember {

    @Test
    void returnsATopLevelStringMember() {
      Json settings = Json.of("{\"model\":\"m\\u00e9\",\"nested\":{\"x\":[1,{}]},\"resume_policy\":\"eager\"}");

      assertThat(settings.stringMember("resume_policy")).contains("eager");
      assertThat(settings.stringMember("model")).contains("mé");
    }

    @Test
    void isEmptyForMissingNestedOrNonStringMembers() {
      Json settings = Json.of("{\"n\":1,\"b\":true,\"z\":null,\"o\":{\"resume_policy\":\"eager\"},\"a\":[\"x\"]}");

      assertThat(settings.stringMember("missing")).isEmpty();
      assertThat(settings.stringMember("n")).isEmpty();
      assertThat(settings.stringMember("b")).isEmpty();
      assertThat(settings.stringMember("z")).isEmpty();
      assertThat(settings.stringMember("o")).isEmpty();
      assertThat(settings.stringMember("a")).isEmpty();
      assertThat(settings.stringMember("resume_policy")).isEmpty();
    }

    @Test
    void isEmptyWhenTheDocumentIsNotAnObject() {
      assertThat(Json.of("[\"resume_policy\"]").stringMember("resume_policy")).isEmpty();
      assertThat(Json.of("\"resume_policy\"").stringMember("resume_policy")).isEmpty();
    }
  }
}
