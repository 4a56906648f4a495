package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTest {

  private static String nested(int depth) {
    return "[".repeat(depth) + "]".repeat(depth);
  }

  private static String nestedObjects(int depth) {
    return "{\"a\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
  }

  @Nested
  @DisplayName("accepts RFC 8259 documents")
  class Valid {

    @ParameterizedTest
    @ValueSource(strings = {
        "{}", "[]", "0", "-0", "1.5", "-1.5e-3", "1E+2", "true", "false", "null", "\"text\"",
        " \t\r\n{ \"a\" : [ 1 , 2 , { } ] } \n",
        "{\"escapes\":\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83d\\ude00\"}",
        "{\"emoji\":\"\ud83d\ude00\"}",
        "[\"\u2028\u2029\"]"
    })
    void parsesDocument(String text) {
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

      assertThat(json.text()).contains(big).contains(decimal).contains("9223372036854775808");
      assertThat(json).isNotEqualTo(Json.of("{\"big\":" + big + ",\"decimal\":0.1,\"long\":9223372036854775808}"));
      assertThat(json).isNotEqualTo(Json.of("{\"big\":" + big + ",\"decimal\":" + decimal
          + ",\"long\":9223372036854775807}"));
    }

    @Test
    void acceptsNumbersAtTheEdgeOfTheExactDecimalRange() {
      assertThat(Json.of("1e131071").text()).isEqualTo("1e131071");
      assertThat(Json.of("1e-16383").text()).isEqualTo("1e-16383");
      assertThat(Json.of("0e999999999").text()).isEqualTo("0e999999999");
    }
  }

  @Nested
  @DisplayName("rejects what is not JSON, naming the field")
  class Invalid {

    @ParameterizedTest
    @ValueSource(strings = {
        "", " ", "NaN", "-NaN", "Infinity", "-Infinity", "[NaN]", "{\"a\":Infinity}",
        "[1,]", "{\"a\":1,}", "[,1]", "{,}", "[1 2]",
        "01", "-01", "[00]", "{\"a\":007}", "1.", ".5", "+1", "1e", "1e+", "-", "0x10",
        "{\"a\":1,\"a\":2}", "{\"a\":{\"b\":1,\"b\":1}}",
        "{a:1}", "{'a':1}", "['a']", "{\"a\"}", "{\"a\":}", "[", "]", "{", "}", "[1]]", "{} {}",
        "tru", "nul", "True", "undefined", "\"unterminated", "\"bad \\x escape\"", "\"\\u12\"", "\"\\uzzzz\"",
        "\"tab\there\"", "\"line\nbreak\"", "// comment\n{}", "{}/**/",
        "1e131072", "1e-16384", "1e99999999999"
    })
    void rejectsInvalidText(String text) {
      assertThatThrownBy(() -> Json.parse("event.payload", text))
          .isInstanceOf(InvalidArgumentException.class)
          .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("event.payload"));
    }

    @Test
    void rejectsNull() {
      assertThatThrownBy(() -> Json.of(null))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("json");
    }

    @Test
    void rejectsDuplicateKeysWithTheKeyInTheMessage() {
      assertThatThrownBy(() -> Json.of("{\"model\":\"a\",\"other\":1,\"model\":\"a\"}"))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("duplicate")
          .hasMessageContaining("model");
    }

    @Test
    void rejectsNulCharacterRawAndEscaped() {
      assertThatThrownBy(() -> Json.of("\"a\u0000b\"")).isInstanceOf(InvalidArgumentException.class);
      assertThatThrownBy(() -> Json.of("{\"a\":\"x\\u0000\"}"))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("u0000");
      assertThatThrownBy(() -> Json.of("{\"k\\u0000\":1}")).isInstanceOf(InvalidArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"", "\"\\ud83dx\"", "\"\\ude00\\ud83d\"",
        "\"\ud83d\"", "\"\ude00\"", "\"\ud83dx\"", "{\"\ud83d\":1}"
    })
    void rejectsUnpairedSurrogates(String text) {
      assertThatThrownBy(() -> Json.of(text))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("surrogate");
    }
  }

  @Nested
  @DisplayName("bounds depth and size")
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
          .hasMessageContaining("deeper");
      assertThatThrownBy(() -> Json.of(nestedObjects(Limits.MAX_JSON_DEPTH + 1)))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("deeper");
    }

    @Test
    void rejectsHostileNestingWithoutStackOverflow() {
      String hostile = "[".repeat(1_000_000);

      assertThatThrownBy(() -> Json.of(hostile)).isInstanceOf(InvalidArgumentException.class);
      assertThatThrownBy(() -> Json.of("{\"a\":".repeat(200_000))).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void rejectsNumbersOutOfRangeInLinearTime() {
      String hugeInteger = "9".repeat(Limits.MAX_JSON_LENGTH - 10);
      String tinyFraction = "0." + "0".repeat(Limits.MAX_JSON_LENGTH - 10) + "1";

      assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
        assertThatThrownBy(() -> Json.of(hugeInteger)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> Json.of(tinyFraction)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> Json.of("[" + hugeInteger.substring(0, 200_000) + "]"))
            .isInstanceOf(InvalidArgumentException.class)
            .hasMessageContaining("range");
      });
    }

    @Test
    void comparesLongNumbersByValue() {
      String trailingZeros = "1." + "0".repeat(16_000);

      assertThat(Json.of(trailingZeros)).isEqualTo(Json.of("1"));
      assertThat(Json.of(trailingZeros).text()).isEqualTo(trailingZeros);
      assertThat(Json.of("-0." + "0".repeat(16_382) + "5")).isEqualTo(Json.of("-5e-16383"));
      assertThat(Json.of("12" + "0".repeat(1_000) + "e-999")).isEqualTo(Json.of("120"));
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
      assertThat(spaced.canonicalText()).isEqualTo(compact.canonicalText());
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
      assertThat(Json.of("[0, -0, 0.0, 0e10, -0.000]")).isEqualTo(Json.of("[0,0,0,0,0]"));
    }

    @Test
    void comparesEscapedAndLiteralCharactersAsTheSameString() {
      Json escaped = Json.of("{\"k\":\"caf\\u00e9 \\ud83d\\ude00 \\/\"}");
      Json literal = Json.of("{\"k\":\"café \ud83d\ude00 /\"}");

      assertThat(escaped).isEqualTo(literal);
      assertThat(escaped.hashCode()).isEqualTo(literal.hashCode());
    }

    @Test
    void distinguishesDifferentValues() {
      assertThat(Json.of("{\"a\":1}")).isNotEqualTo(Json.of("{\"a\":2}"));
      assertThat(Json.of("{\"a\":1}")).isNotEqualTo(Json.of("{\"a\":\"1\"}"));
      assertThat(Json.of("[1,2]")).isNotEqualTo(Json.of("[2,1]"));
      assertThat(Json.of("{\"a\":null}")).isNotEqualTo(Json.of("{}"));
      assertThat(Json.of("{\"a\":1}")).isNotEqualTo(Json.of("{\"A\":1}"));
      assertThat(Json.of("\"\\u00e9\"")).isNotEqualTo(Json.of("\"e\u0301\""));
      assertThat(Json.of("{}")).isNotEqualTo("{}");
    }

    @Test
    void canonicalTextIsItselfEquivalentJson() {
      Json original = Json.of("{\"z\":[1.50,\"\\n\\u0001\"],\"a\":{\"y\":1e2}}");
      Json canonical = Json.of(original.canonicalText());

      assertThat(canonical).isEqualTo(original);
      assertThat(canonical.canonicalText()).isEqualTo(original.canonicalText());
    }
  }

  @Nested
  @DisplayName("stringMember")
  class StringMember {

    @Test
    void returnsATopLevelStringMember() {
      Json settings = Json.of("{\"resume_policy\":\"eager\",\"model\":\"m\\u00e9\"}");

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
