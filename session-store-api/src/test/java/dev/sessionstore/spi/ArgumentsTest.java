package dev.sessionstore.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Limits;
import java.time.Duration;
import java.time.Instant;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ArgumentsTest {

  private static void assertRejected(ThrowingCallable call, String field, String problem) {
    assertThatThrownBy(call)
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith(field + ": ")
        .hasMessageContaining(problem)
        .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo(field));
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "Session-1", " padded ", "MiXeD", "caf\u00e9", "e\u0301", "\ud83d\ude00", "a:b/c?d"})
  void keysAreReturnedUnchanged(String key) {
    assertThat(Arguments.requireKey("id", key)).isSameAs(key);
  }

  @Test
  void keyMustNotBeNull() {
    assertRejected(() -> Arguments.requireKey("session.id", null), "session.id", "must not be null");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\t", "\n", " \u2003 "})
  void keyMustNotBeBlank(String blank) {
    assertRejected(() -> Arguments.requireKey("event.type", blank), "event.type", "blank");
  }

  @Test
  void keyMayBeExactlyTheMaximumLength() {
    String longest = "k".repeat(Limits.MAX_KEY_LENGTH);

    assertThat(Arguments.requireKey("id", longest)).isEqualTo(longest);
    assertRejected(() -> Arguments.requireKey("id", longest + "k"), "id", "longer than " + Limits.MAX_KEY_LENGTH);
  }

  @Test
  void keyMustNotHoldNul() {
    assertRejected(() -> Arguments.requireKey("id", "a\u0000b"), "id", "U+0000");
  }

  @ParameterizedTest
  @ValueSource(strings = {"\ud83d", "a\ud83d", "\ud83da", "\ude00", "a\ude00\ud83d", "\ud83d\ud83d\ude00"})
  void keyMustNotHoldUnpairedSurrogates(String key) {
    assertRejected(() -> Arguments.requireKey("id", key), "id", "unpaired surrogate");
  }

  @Test
  void optionalKeyAllowsNullButChecksValues() {
    assertThat(Arguments.optionalKey("runId", null)).isNull();
    assertThat(Arguments.optionalKey("runId", "r")).isEqualTo("r");
    assertRejected(() -> Arguments.optionalKey("runId", " "), "runId", "blank");
  }

  @Test
  void textAllowsNullAndBlankButBoundsLength() {
    assertThat(Arguments.requireText("metadata[k]", null, 3)).isNull();
    assertThat(Arguments.requireText("metadata[k]", "", 3)).isEmpty();
    assertThat(Arguments.requireText("metadata[k]", "abc", 3)).isEqualTo("abc");
    assertRejected(() -> Arguments.requireText("metadata[k]", "abcd", 3), "metadata[k]", "longer than 3");
    assertRejected(() -> Arguments.requireText("metadata[k]", "\u0000", 3), "metadata[k]", "U+0000");
  }

  @Test
  void nonNullReturnsTheValue() {
    Object value = new Object();

    assertThat(Arguments.requireNonNull("query", value)).isSameAs(value);
    assertRejected(() -> Arguments.requireNonNull("query", null), "query", "must not be null");
  }

  @Test
  void nonNegativeAcceptsZero() {
    assertThat(Arguments.requireNonNegative("after", 0)).isZero();
    assertThat(Arguments.requireNonNegative("after", Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertRejected(() -> Arguments.requireNonNegative("after", -1), "after", ">= 0");
    assertRejected(() -> Arguments.requireNonNegative("after", Long.MIN_VALUE), "after", ">= 0");
  }

  @Test
  void positiveRejectsZero() {
    assertThat(Arguments.requirePositive("limit", 1)).isOne();
    assertRejected(() -> Arguments.requirePositive("limit", 0), "limit", ">= 1");
    assertRejected(() -> Arguments.requirePositive("limit", -1), "limit", ">= 1");
  }

  @Test
  void durationMustBePresentAndNotNegative() {
    assertThat(Arguments.requireNonNegative("timeout", Duration.ZERO)).isZero();
    assertThat(Arguments.requireNonNegative("timeout", Duration.ofDays(1))).isEqualTo(Duration.ofDays(1));
    assertRejected(() -> Arguments.requireNonNegative("timeout", (Duration) null), "timeout", "must not be null");
    assertRejected(() -> Arguments.requireNonNegative("timeout", Duration.ofNanos(-1)), "timeout", "negative");
  }

  @Test
  void instantsAreTruncatedToMicroseconds() {
    Instant precise = Instant.parse("2030-01-01T00:00:00.123456789Z");

    assertThat(Arguments.requireInstant("timestamp", precise)).isEqualTo("2030-01-01T00:00:00.123456Z");
    assertThat(Arguments.optionalInstant("timestamp", precise)).isEqualTo("2030-01-01T00:00:00.123456Z");
    assertThat(Arguments.optionalInstant("timestamp", null)).isNull();
    assertRejected(() -> Arguments.requireInstant("timestamp", null), "timestamp", "must not be null");
  }
}
